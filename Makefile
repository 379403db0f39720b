# twiddle's front door. On a fresh Debian 12 machine:
#   make run    install what is missing, build (Release), run the main job on the default device
#   make test   the same set-up, then the whole test suite through CTest
#   make sanitize  the suite again in a Debug build under AddressSanitizer and UBSan
#   make format-check  fails if a C++ file differs from .clang-format's style
BUILD ?= build
SANITIZE_BUILD ?= build-asan
JOBS ?= $(shell nproc)
PACKAGES := cmake make g++ pkg-config libvulkan-dev mesa-vulkan-drivers vulkan-validationlayers \
            libshaderc-dev glslang-dev spirv-tools libgtest-dev libcli11-dev nlohmann-json3-dev \
            python3-numpy clang-format libvkfft-dev libfftw3-dev libpng-dev zlib1g-dev unifont \
            libcpp-httplib-dev chromium libopenmpi-dev openmpi-bin
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: setup build run test sanitize format-check clean

# Installs only the packages that are missing, after one apt-get update.
setup:
	@missing=$$(for p in $(PACKAGES); do \
	    dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; \
	  done); \
	if [ -n "$$missing" ]; then \
	  echo "installing:" $$missing; \
	  $(SUDO) apt-get update && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y --no-install-recommends $$missing; \
	fi

build: setup
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DTWIDDLE_WERROR=ON
	cmake --build $(BUILD) -j$(JOBS)

# The main job: the diffraction demo, whose pictures go to $(BUILD)/demo (it prints where).
run: build
	$(BUILD)/tools/twiddle demo --out $(BUILD)/demo

test: build
	cd $(BUILD) && ctest --output-on-failure -j$(JOBS)

# Left out under the sanitizers, where they take minutes on lavapipe: the four largest transform
# sizes (2^21 to 2^24; the same code paths run at 2^20 and below), and the sweeps of every
# smooth length and of the lengths with large prime factors (Fft/DirectSum, Fft/Shapes and the planner tests run
# those paths), the real transforms' sweeps of lengths (the other Real tests run their paths), and the
# graph's transform of 144 MB in blocks (its chunked test runs the same lowering on small arrays).
# Leak checking covers the tests without Vulkan only: lavapipe's LLVM leaks, and unloads itself
# before LeakSanitizer can name (and suppress) it.
sanitize: setup
	cmake -S . -B $(SANITIZE_BUILD) -DCMAKE_BUILD_TYPE=Debug -DTWIDDLE_SANITIZE=ON -DTWIDDLE_WERROR=ON
	cmake --build $(SANITIZE_BUILD) -j$(JOBS)
	cd $(SANITIZE_BUILD) && ctest --output-on-failure -j$(JOBS) -LE vulkan
	cd $(SANITIZE_BUILD) && ASAN_OPTIONS=detect_leaks=0 \
	  GTEST_FILTER='-*/N2097152_*:*/N4194304_*:Fft/Large.*:Smooth/*:LargePrimes/*:Real.EveryLength*:Real.LongerLengths:GraphTest.ViewsOverTheBindingRangeRunInBlocks' \
	  ctest --output-on-failure -j$(JOBS) -L vulkan

format-check: setup
	git ls-files '*.cpp' '*.hpp' | xargs clang-format --dry-run --Werror

clean:
	rm -rf $(BUILD) $(SANITIZE_BUILD)
