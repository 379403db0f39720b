#!/usr/bin/env bash
# Installs a twiddle build into a fresh prefix and proves that the installed package works: builds
# the consumer project against it through CMake (find_package) and through pkg-config, and runs
# both programs. With MPIEXEC (a build with MPI), does the same for the distributed consumer
# (find_package(twiddle COMPONENTS dist), pkg-config twiddle-dist) and runs it on 2 ranks; without,
# checks that nothing of twiddle::dist is installed and that asking for it fails with the reason.
#
# usage: run.sh BUILD_DIR PROJECT_DIR DIST_PROJECT_DIR WORK_DIR CMAKE LIBDIR VERSION [MPIEXEC]
#   BUILD_DIR         a built twiddle build tree
#   PROJECT_DIR       the consumer project (CMakeLists.txt and main.cpp)
#   DIST_PROJECT_DIR  the distributed consumer project (CMakeLists.txt and main.cpp)
#   WORK_DIR          emptied, then holds the prefix, the consumer builds and their logs
#   CMAKE             the cmake executable
#   LIBDIR            CMAKE_INSTALL_LIBDIR of the build, relative to the prefix
#   VERSION           the version the package must report
#   MPIEXEC           mpiexec, where the build has MPI (libtwiddle_dist)
# The consumer builds use CXX (default c++), CXXFLAGS and LDFLAGS from the environment.
set -euo pipefail

if (($# != 7 && $# != 8)); then
    echo "usage: $0 BUILD_DIR PROJECT_DIR DIST_PROJECT_DIR WORK_DIR CMAKE LIBDIR VERSION [MPIEXEC]" >&2
    exit 2
fi
build_dir=$1 project_dir=$2 dist_project_dir=$3 work_dir=$4 cmake=$5 libdir=$6 version=$7 mpiexec=${8-}
prefix=$work_dir/prefix
# The soname's version: the major version, and before 1.0 the minor one too (0.1).
major=${version%%.*}
minor=${version#*.}
minor=${minor%%.*}
soversion=$major
((major > 0)) || soversion=$major.$minor

fail() {
    echo "install_consumer: $*" >&2
    exit 1
}

# Runs a command with its output going to a log, which is shown only if the command fails.
quietly() {
    local log=$1
    shift
    if ! "$@" >"$log" 2>&1; then
        cat "$log" >&2
        fail "failed: $*"
    fi
}

rm -rf "$work_dir"
mkdir -p "$work_dir"

echo "== cmake --install into $prefix"
quietly "$work_dir/install.log" "$cmake" --install "$build_dir" --prefix "$prefix"
for file in include/twiddle/twiddle.hpp include/twiddle/version.hpp \
    "$libdir/libtwiddle.so" "$libdir/libtwiddle.so.$soversion" "$libdir/libtwiddle.so.$version" \
    "$libdir/cmake/twiddle/twiddleConfig.cmake" "$libdir/cmake/twiddle/twiddleConfigVersion.cmake" \
    "$libdir/pkgconfig/twiddle.pc"; do
    [[ -e $prefix/$file ]] || fail "$file was not installed"
done
dist_files=(include/twiddle/dist.hpp "$libdir/libtwiddle_dist.so" "$libdir/libtwiddle_dist.so.$soversion"
    "$libdir/libtwiddle_dist.so.$version" "$libdir/cmake/twiddle/twiddleDistTargets.cmake"
    "$libdir/pkgconfig/twiddle-dist.pc")
for file in "${dist_files[@]}"; do
    if [[ -n $mpiexec ]]; then
        [[ -e $prefix/$file ]] || fail "$file was not installed"
    else
        [[ ! -e $prefix/$file ]] || fail "$file was installed by a build without MPI"
    fi
done

echo "== CMake consumer: find_package(twiddle)"
cmake_build=$work_dir/cmake-build
quietly "$work_dir/cmake-configure.log" "$cmake" -S "$project_dir" -B "$cmake_build" \
    -DCMAKE_PREFIX_PATH="$prefix"
# The package must come from the fresh prefix, not from anywhere else on the machine.
grep -qxF "twiddle_DIR:PATH=$prefix/$libdir/cmake/twiddle" "$cmake_build/CMakeCache.txt" ||
    fail "find_package(twiddle) did not use $prefix: $(grep '^twiddle_DIR' "$cmake_build/CMakeCache.txt")"
# Only the component dist needs MPI.
! grep -q '^MPI_' "$cmake_build/CMakeCache.txt" || fail "find_package(twiddle) looked for MPI"
quietly "$work_dir/cmake-build.log" "$cmake" --build "$cmake_build"
"$cmake_build/consumer"

echo "== pkg-config consumer"
export PKG_CONFIG_PATH=$prefix/$libdir/pkgconfig
pc_version=$(pkg-config --modversion twiddle)
[[ $pc_version == "$version" ]] || fail "pkg-config reports version $pc_version, not $version"
read -ra pc_flags <<<"$(pkg-config --cflags --libs twiddle)"
read -ra cxx_flags <<<"${CXXFLAGS-}"
read -ra ld_flags <<<"${LDFLAGS-}"
quietly "$work_dir/pkgconfig-build.log" "${CXX:-c++}" -std=c++20 -Wall -Wextra -Wpedantic -Werror \
    "${cxx_flags[@]}" "$project_dir/main.cpp" -o "$work_dir/pkgconfig-consumer" \
    "${pc_flags[@]}" "${ld_flags[@]}"
LD_LIBRARY_PATH=$prefix/$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} "$work_dir/pkgconfig-consumer"

echo "== pkg-config in a moved copy of the prefix"
moved=$work_dir/moved-prefix
cp -a "$prefix" "$moved"
moved_includedir=$(PKG_CONFIG_PATH=$moved/$libdir/pkgconfig pkg-config --variable=includedir twiddle)
[[ $(realpath "$moved_includedir") == "$(realpath "$moved/include")" ]] ||
    fail "twiddle.pc in a moved prefix gives includedir $moved_includedir"

if [[ -z $mpiexec ]]; then
    echo "== find_package(twiddle COMPONENTS dist) without MPI: fails, saying why"
    if "$cmake" -S "$dist_project_dir" -B "$work_dir/dist-cmake-build" -DCMAKE_PREFIX_PATH="$prefix" \
        >"$work_dir/dist-cmake-configure.log" 2>&1; then
        fail "find_package(twiddle REQUIRED COMPONENTS dist) succeeded against a package built without MPI"
    fi
    grep -q "built without MPI" "$work_dir/dist-cmake-configure.log" ||
        { cat "$work_dir/dist-cmake-configure.log" >&2; fail "the failed find_package did not say why"; }
    exit 0
fi

run_ranks() {
    LD_LIBRARY_PATH=$prefix/$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
        "$mpiexec" -np 2 --oversubscribe --allow-run-as-root "$@"
}

# A program linked --as-needed that calls only twiddle::dist does not list libtwiddle: the dist
# library must find it beside itself.
readelf -d "$prefix/$libdir/libtwiddle_dist.so" | grep -Eq '(RUNPATH|RPATH).*\$ORIGIN' ||
    fail "libtwiddle_dist.so has no RUNPATH (or RPATH) \$ORIGIN to find libtwiddle.so beside it"

echo "== CMake distributed consumer: find_package(twiddle COMPONENTS dist), 2 ranks"
dist_build=$work_dir/dist-cmake-build
quietly "$work_dir/dist-cmake-configure.log" "$cmake" -S "$dist_project_dir" -B "$dist_build" \
    -DCMAKE_PREFIX_PATH="$prefix"
grep -qxF "twiddle_DIR:PATH=$prefix/$libdir/cmake/twiddle" "$dist_build/CMakeCache.txt" ||
    fail "find_package(twiddle) did not use $prefix: $(grep '^twiddle_DIR' "$dist_build/CMakeCache.txt")"
quietly "$work_dir/dist-cmake-build.log" "$cmake" --build "$dist_build"
run_ranks "$dist_build/dist_consumer"

echo "== pkg-config distributed consumer, 2 ranks"
pc_version=$(pkg-config --modversion twiddle-dist)
[[ $pc_version == "$version" ]] || fail "pkg-config reports twiddle-dist version $pc_version, not $version"
read -ra pc_flags <<<"$(pkg-config --cflags --libs twiddle-dist)"
# ompi-cxx.pc gives MPI's headers as -I, not as system headers (as CMake's MPI::MPI_CXX does), and
# the C++ bindings that Open MPI's mpi.h includes cast between function types (op_inln.h).
quietly "$work_dir/dist-pkgconfig-build.log" "${CXX:-c++}" -std=c++20 -Wall -Wextra -Wpedantic -Werror \
    -Wno-cast-function-type "${cxx_flags[@]}" "$dist_project_dir/main.cpp" -o "$work_dir/dist-pkgconfig-consumer" \
    "${pc_flags[@]}" "${ld_flags[@]}"
run_ranks "$work_dir/dist-pkgconfig-consumer"
