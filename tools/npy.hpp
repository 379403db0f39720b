// Placeholder: the .npy reader and writer (being written).
#pragma once
