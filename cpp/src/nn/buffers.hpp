// A layer's working buffers, sized per batch, only grow: resize would zero again, at every longer
// batch, what the layer is about to overwrite (a measurable share of a training step in the
// WebAssembly build). Their contents past what the current batch writes are stale, never read.
#pragma once

#include <cstddef>
#include <initializer_list>

namespace attention::nn {

template <class Vector> void grow(std::size_t size, std::initializer_list<Vector *> buffers) {
  for (auto *buffer : buffers)
    if (buffer->size() < size)
      buffer->resize(size);
}

} // namespace attention::nn
