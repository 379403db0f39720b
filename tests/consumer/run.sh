#!/usr/bin/env bash
# Installs a twiddle build into a fresh prefix and proves that the installed package works: builds
# the consumer project against it through CMake (find_package) and through pkg-config, and runs
# both programs.
#
# usage: run.sh BUILD_DIR PROJECT_DIR WORK_DIR CMAKE LIBDIR VERSION
#   BUILD_DIR    a built twiddle build tree
#   PROJECT_DIR  the consumer project (CMakeLists.txt and main.cpp)
#   WORK_DIR     emptied, then holds the prefix, the consumer builds and their logs
#   CMAKE        the cmake executable
#   LIBDIR       CMAKE_INSTALL_LIBDIR of the build, relative to the prefix
#   VERSION      the version the package must report
# Both consumer builds use CXX (default c++), CXXFLAGS and LDFLAGS from the environment.
set -euo pipefail

if (($# != 6)); then
    echo "usage: $0 BUILD_DIR PROJECT_DIR WORK_DIR CMAKE LIBDIR VERSION" >&2
    exit 2
fi
build_dir=$1 project_dir=$2 work_dir=$3 cmake=$4 libdir=$5 version=$6
prefix=$work_dir/prefix

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
    "$libdir/libtwiddle.so" "$libdir/libtwiddle.so.${version%%.*}" "$libdir/libtwiddle.so.$version" \
    "$libdir/cmake/twiddle/twiddleConfig.cmake" "$libdir/cmake/twiddle/twiddleConfigVersion.cmake" \
    "$libdir/pkgconfig/twiddle.pc"; do
    [[ -e $prefix/$file ]] || fail "$file was not installed"
done

echo "== CMake consumer: find_package(twiddle)"
cmake_build=$work_dir/cmake-build
quietly "$work_dir/cmake-configure.log" "$cmake" -S "$project_dir" -B "$cmake_build" \
    -DCMAKE_PREFIX_PATH="$prefix"
# The package must come from the fresh prefix, not from anywhere else on the machine.
grep -qxF "twiddle_DIR:PATH=$prefix/$libdir/cmake/twiddle" "$cmake_build/CMakeCache.txt" ||
    fail "find_package(twiddle) did not use $prefix: $(grep '^twiddle_DIR' "$cmake_build/CMakeCache.txt")"
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
