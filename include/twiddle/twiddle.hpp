// twiddle: fast Fourier transforms on GPUs through Vulkan compute. Include this header.
#pragma once

#include "twiddle/buffer.hpp"
#include "twiddle/caps.hpp"
#include "twiddle/context.hpp"
#include "twiddle/desc.hpp"
#include "twiddle/error.hpp"
#include "twiddle/graph.hpp"
#include "twiddle/logical_plan.hpp"
#include "twiddle/plan.hpp"
#include "twiddle/sht.hpp"
#include "twiddle/timer.hpp"
#include "twiddle/tuning.hpp"
#include "twiddle/types.hpp"
#include "twiddle/version.hpp"
