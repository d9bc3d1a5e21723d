// The attention core's numeric kernels: packed matrix products (gemm.hpp), and reductions and
// elementwise functions over rows (elementwise.hpp), on 16-byte vectors (simd.hpp).
#pragma once

#include "attention/detail/elementwise.hpp"
#include "attention/detail/fused.hpp"
#include "attention/detail/gemm.hpp"
#include "attention/detail/simd.hpp"
