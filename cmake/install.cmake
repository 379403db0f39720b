# Installation: the public headers, the shared library, the CLI (tools/CMakeLists.txt), a CMake
# package giving the imported target twiddle::twiddle, and a pkg-config file.
include(CMakePackageConfigHelpers)

set(TWIDDLE_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/twiddle)

install(TARGETS twiddle EXPORT twiddleTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
# (dist.hpp and libtwiddle_dist are not installed yet: their package needs MPI's.)
install(DIRECTORY include/twiddle DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.hpp"
  PATTERN "dist.hpp" EXCLUDE)
install(FILES ${PROJECT_BINARY_DIR}/include/twiddle/version.hpp
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/twiddle)

# find_package(twiddle): the exported target, a config file that finds Vulkan (the one public
# dependency; shaderc is linked into the library), and a version file.
install(EXPORT twiddleTargets NAMESPACE twiddle:: DESTINATION ${TWIDDLE_CMAKE_DIR})
configure_package_config_file(cmake/twiddleConfig.cmake.in ${PROJECT_BINARY_DIR}/twiddleConfig.cmake
  INSTALL_DESTINATION ${TWIDDLE_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/twiddleConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/twiddleConfig.cmake ${PROJECT_BINARY_DIR}/twiddleConfigVersion.cmake
  DESTINATION ${TWIDDLE_CMAKE_DIR})

# pkg-config. Directories inside the prefix are written relative to ${prefix}; the prefix itself
# is only known at install time (`cmake --install --prefix` may change it), so the configured
# file keeps the placeholder @CMAKE_INSTALL_PREFIX@ and the install step fills it in.
foreach(dir LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${dir}}")
    set(TWIDDLE_PC_${dir} "${CMAKE_INSTALL_${dir}}")
  else()
    set(TWIDDLE_PC_${dir} "\${prefix}/${CMAKE_INSTALL_${dir}}")
  endif()
endforeach()
set(TWIDDLE_PC_PREFIX "@CMAKE_INSTALL_PREFIX@")
configure_file(cmake/twiddle.pc.in ${PROJECT_BINARY_DIR}/twiddle.pc.in @ONLY)
install(CODE "configure_file([[${PROJECT_BINARY_DIR}/twiddle.pc.in]]
                             [[${PROJECT_BINARY_DIR}/twiddle.pc]] @ONLY)")
install(FILES ${PROJECT_BINARY_DIR}/twiddle.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
