# Installation: the public headers, the shared library, the CLI (tools/CMakeLists.txt), a CMake
# package giving the imported target twiddle::twiddle, and a pkg-config file. Where the build has
# MPI (TWIDDLE_HAVE_MPI), also libtwiddle_dist and dist.hpp: the package's component dist
# (twiddle::dist, in an export set of its own) and twiddle-dist.pc.
include(CMakePackageConfigHelpers)

set(TWIDDLE_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/twiddle)

install(TARGETS twiddle EXPORT twiddleTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
# dist.hpp includes mpi.h: it is installed below with libtwiddle_dist, or not at all.
install(DIRECTORY include/twiddle DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.hpp"
  PATTERN "dist.hpp" EXCLUDE)
install(FILES ${PROJECT_BINARY_DIR}/include/twiddle/version.hpp
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/twiddle)

if(TWIDDLE_HAVE_MPI)
  set_target_properties(twiddle_dist PROPERTIES EXPORT_NAME dist)
  install(TARGETS twiddle_dist EXPORT twiddleDistTargets
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(FILES include/twiddle/dist.hpp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/twiddle)
endif()

# find_package(twiddle): the exported target, a config file that finds Vulkan (the one public
# dependency; shaderc is linked into the library), and a version file. twiddle::dist has its own
# targets file, which the config file reads, after finding MPI, only for the component dist.
install(EXPORT twiddleTargets NAMESPACE twiddle:: DESTINATION ${TWIDDLE_CMAKE_DIR})
if(TWIDDLE_HAVE_MPI)
  install(EXPORT twiddleDistTargets NAMESPACE twiddle:: DESTINATION ${TWIDDLE_CMAKE_DIR})
endif()
configure_package_config_file(cmake/twiddleConfig.cmake.in ${PROJECT_BINARY_DIR}/twiddleConfig.cmake
  INSTALL_DESTINATION ${TWIDDLE_CMAKE_DIR})
# Before 1.0, a request is met by the same minor version only, as the soname says (CMakeLists.txt
# decides both).
write_basic_package_version_file(${PROJECT_BINARY_DIR}/twiddleConfigVersion.cmake
  COMPATIBILITY ${TWIDDLE_VERSION_COMPATIBILITY})
install(FILES ${PROJECT_BINARY_DIR}/twiddleConfig.cmake ${PROJECT_BINARY_DIR}/twiddleConfigVersion.cmake
  DESTINATION ${TWIDDLE_CMAKE_DIR})

# pkg-config: the files lie in ${libdir}/pkgconfig. Directories inside the prefix are written
# relative to ${prefix}, and the prefix relative to the file's own directory (pkg-config's
# ${pcfiledir}), so that `cmake --install --prefix` and a moved installation need nothing more.
# An absolute CMAKE_INSTALL_LIBDIR places the files outside the prefix: the prefix is then the one
# installed into, filled in by the install step (twiddle_pc, which keeps @CMAKE_INSTALL_PREFIX@).
foreach(dir LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${dir}}")
    set(TWIDDLE_PC_${dir} "${CMAKE_INSTALL_${dir}}")
  else()
    set(TWIDDLE_PC_${dir} "\${prefix}/${CMAKE_INSTALL_${dir}}")
  endif()
endforeach()
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(TWIDDLE_PC_PREFIX "@CMAKE_INSTALL_PREFIX@")
else()
  set(TWIDDLE_PC_PREFIX "\${pcfiledir}")
  string(REPLACE "/" ";" twiddle_pc_steps "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
  foreach(step IN LISTS twiddle_pc_steps)
    if(step)
      string(APPEND TWIDDLE_PC_PREFIX "/..")
    endif()
  endforeach()
endif()
# Installs NAME.pc from cmake/NAME.pc.in: configured now, and where the prefix is the one installed
# into, configured again by the install step into a file of its own for that install.
function(twiddle_pc name)
  configure_file(cmake/${name}.pc.in ${PROJECT_BINARY_DIR}/${name}.pc @ONLY)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
    install(CODE "string(MD5 twiddle_pc_tag \"\${CMAKE_INSTALL_PREFIX}\")
                  string(CONCAT twiddle_pc [[${PROJECT_BINARY_DIR}/${name}-]] \${twiddle_pc_tag} /${name}.pc)
                  configure_file([[${PROJECT_BINARY_DIR}/${name}.pc]] \${twiddle_pc} @ONLY)
                  file(INSTALL \${twiddle_pc} DESTINATION [[${CMAKE_INSTALL_LIBDIR}/pkgconfig]])")
  else()
    install(FILES ${PROJECT_BINARY_DIR}/${name}.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
  endif()
endfunction()
twiddle_pc(twiddle)

# twiddle-dist.pc requires twiddle.pc and MPI's own pkg-config module: dist.hpp includes mpi.h, and
# its users call MPI themselves. In C++, Open MPI's mpi.h declares its C++ bindings, which need
# libmpi_cxx, hence ompi-cxx. For other MPIs, name their module in TWIDDLE_PC_MPI.
if(TWIDDLE_HAVE_MPI)
  set(twiddle_mpi_module "")
  if(EXISTS "${MPI_CXX_HEADER_DIR}/mpi.h")
    file(STRINGS "${MPI_CXX_HEADER_DIR}/mpi.h" twiddle_ompi_version REGEX "^#define OMPI_MAJOR_VERSION ")
    if(twiddle_ompi_version)
      set(twiddle_mpi_module ompi-cxx)
    endif()
  endif()
  set(TWIDDLE_PC_MPI "${twiddle_mpi_module}" CACHE STRING
      "pkg-config module of the MPI that twiddle-dist.pc requires (found: ompi-cxx for Open MPI)")
  set(TWIDDLE_PC_DIST_REQUIRES "twiddle = ${PROJECT_VERSION}")
  if(TWIDDLE_PC_MPI)
    string(APPEND TWIDDLE_PC_DIST_REQUIRES ", ${TWIDDLE_PC_MPI}")
  else()
    message(WARNING "twiddle-dist.pc will not require MPI: set TWIDDLE_PC_MPI to its pkg-config module")
  endif()
  twiddle_pc(twiddle-dist)
endif()
