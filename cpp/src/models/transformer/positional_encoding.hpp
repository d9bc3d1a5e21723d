// The tutorial model's sinusoidal positional encoding, computed (a buffer in PyTorch, not a
// parameter): PE[pos, 2i] = sin(pos * den_i), PE[pos, 2i + 1] = cos(pos * den_i),
// den_i = exp(-2i ln(10000) / d), in double, as the tutorial computes it. The network adds it to
// the embeddings; the walkthrough shows it.
#pragma once

#include <cmath>
#include <cstddef>

namespace attention {

// Row `pos` of the encoding, `width` values into `row`.
template <class T> void positional_encoding(std::size_t pos, std::size_t width, T *row) {
  for (std::size_t i = 0; i < width; i += 2) {
    const double angle = double(pos) * std::exp(-double(i) * std::log(10000.0) / double(width));
    row[i] = static_cast<T>(std::sin(angle));
    if (i + 1 < width)
      row[i + 1] = static_cast<T>(std::cos(angle));
  }
}

} // namespace attention
