#include "npy.hpp"
