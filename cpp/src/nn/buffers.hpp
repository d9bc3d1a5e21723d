// A layer's working buffers, sized per batch, only grow: resize would zero again, at every longer
// batch, what the layer is about to overwrite (a measurable share of a training step in the
// WebAssembly build). Their contents past what the current batch writes are stale, never read.
#pragma once

#include <algorithm>
#include <cstddef>
#include <initializer_list>

#include "attention/types.hpp"

namespace attention::nn {

template <class Vector> void grow(std::size_t size, std::initializer_list<Vector *> buffers) {
  for (auto *buffer : buffers)
    if (buffer->size() < size)
      buffer->resize(size);
}

// `rows` x `cols` values of a buffer as a matrix of their own (a trace's, the buffer reused).
template <class T> Matrix<T> matrix_of(const T *data, std::size_t rows, std::size_t cols) {
  auto result = Matrix<T>::from_shape({rows, cols});
  std::copy(data, data + rows * cols, result.data());
  return result;
}

} // namespace attention::nn
