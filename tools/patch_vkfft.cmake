# Copies Debian's vkFFT.h (libvkfft-dev 1.2.26) to OUT, patched to compile against bookworm's
# glslang 12: VkFFT's initializer of glslang_resource_t stops at the NV mesh-shader limits, while
# glslang 12 added nine EXT ones after them, so the next initializer (an int) met the nested
# `limits` struct. The patch inserts those nine values (those of glslang's default resource) and
# applies only where the header lacks them and glslang has them.
# Run by tools/CMakeLists.txt: cmake -DIN=vkFFT.h -DGLSLANG=glslang_c_interface.h -DOUT=... -P this file.
file(READ "${IN}" text)
file(READ "${GLSLANG}" glslang)
set(anchor "/* .maxMeshViewCountNV = */ 4,")
string(FIND "${text}" "${anchor}" at)
string(FIND "${text}" "maxMeshOutputVerticesEXT" has_ext)
string(FIND "${glslang}" "max_mesh_output_vertices_ext" glslang_ext)
if(at GREATER_EQUAL 0 AND has_ext EQUAL -1 AND glslang_ext GREATER_EQUAL 0)
  string(REPLACE "${anchor}"
         "${anchor} /* twiddle: glslang 12's EXT mesh limits */ 256, 256, 128, 128, 128, 128, 128, 128, 4,"
         text "${text}")
endif()
file(WRITE "${OUT}.tmp" "${text}")
file(RENAME "${OUT}.tmp" "${OUT}")
