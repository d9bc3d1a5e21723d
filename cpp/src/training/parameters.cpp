#include "training/initialise.hpp"

#include <algorithm>
#include <cmath>

#include "attention/errors.hpp"
#include "attention/numpy_random.hpp"

namespace attention {

template <class T>
ParameterSet<T>::ParameterSet(ParameterLayout layout) : layout_(std::move(layout)) {
  flat_.assign(layout_->empty() ? 0 : layout_->back().offset + layout_->back().size, T(0));
}

template <class T> std::vector<std::string> ParameterSet<T>::names() const {
  std::vector<std::string> names;
  for (const auto &info : *layout_)
    names.push_back(info.name);
  return names;
}

template <class T> const ParameterInfo &ParameterSet<T>::info(const std::string &name) const {
  for (const auto &info : *layout_)
    if (info.name == name)
      return info;
  detail::fail(detail::Argument("parameter"), "the model has no parameter \"", name, "\"");
}

template <class T>
void ParameterSet<T>::assign(const std::string &name, const std::vector<std::size_t> &shape,
                             const T *values) {
  const ParameterInfo &target = info(name);
  if (shape != target.shape)
    detail::fail(detail::Argument("shape"), name, " has shape ",
                 detail::Shape{target.shape.data(), target.shape.size()}, ", not ",
                 detail::Shape{shape.data(), shape.size()});
  for (std::size_t i = 0; i < target.size; ++i)
    if (!std::isfinite(values[i]))
      detail::fail(detail::Argument("values"), "the values for ", name,
                   " hold a non-finite value (", values[i], ") at flat index ", i);
  std::copy(values, values + target.size, flat_.data() + target.offset);
}

template <class T> bool ParameterSet<T>::same_layout(const ParameterSet &other) const {
  if (layout_ == other.layout_)
    return true;
  if (layout_->size() != other.layout_->size())
    return false;
  for (std::size_t i = 0; i < layout_->size(); ++i)
    if ((*layout_)[i].name != (*other.layout_)[i].name ||
        (*layout_)[i].shape != (*other.layout_)[i].shape)
      return false;
  return true;
}

ParameterLayout make_layout(const std::vector<nn::ParameterSpec> &specs) {
  auto layout = std::make_shared<std::vector<ParameterInfo>>();
  std::size_t offset = 0;
  for (const auto &spec : specs) {
    std::size_t size = 1;
    for (std::size_t extent : spec.shape)
      size *= extent;
    layout->push_back({spec.name, spec.shape, offset, size});
    offset += size;
  }
  return layout;
}

template <class T>
void initialise(ParameterSet<T> &parameters, const std::vector<nn::ParameterSpec> &specs,
                std::int64_t seed) {
  NumpyRandomState random(seed);
  for (std::size_t k = 0; k < specs.size(); ++k) {
    const ParameterInfo &info = parameters.layout()[k];
    const double bound = specs[k].bound;
    const std::size_t rows = info.shape[0], cols = info.size / rows;
    const Matrix<double> drawn = bound == 0 ? random.randn(rows, cols) : random.rand(rows, cols);
    T *out = parameters.data() + info.offset;
    for (std::size_t i = 0; i < info.size; ++i)
      out[i] = static_cast<T>(bound == 0 ? drawn.data()[i] : -bound + 2 * bound * drawn.data()[i]);
  }
}

template class ParameterSet<float>;
template class ParameterSet<double>;
template void initialise(ParameterSet<float> &, const std::vector<nn::ParameterSpec> &,
                         std::int64_t);
template void initialise(ParameterSet<double> &, const std::vector<nn::ParameterSpec> &,
                         std::int64_t);

} // namespace attention
