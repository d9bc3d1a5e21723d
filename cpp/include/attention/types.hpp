// The containers of the core's API: row-major xtensor matrices and vectors.
#pragma once

#include <xtensor/xtensor.hpp>

namespace attention {

template <class T> using Matrix = xt::xtensor<T, 2>;
template <class T> using Vector = xt::xtensor<T, 1>;

} // namespace attention
