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

template <class T>
void assign_all(ParameterSet<T> &parameters, const std::vector<NamedValues<T>> &named) {
  using detail::Argument;
  using detail::fail;
  const auto &layout = parameters.layout();
  std::vector<const NamedValues<T> *> found(layout.size(), nullptr);
  for (const auto &entry : named) {
    auto it = std::find_if(layout.begin(), layout.end(),
                           [&](const ParameterInfo &info) { return info.name == entry.name; });
    if (it == layout.end())
      fail(Argument("parameters"), "\"", entry.name.substr(0, 80),
           "\" is not a parameter of this model");
    const std::size_t k = static_cast<std::size_t>(it - layout.begin());
    if (found[k])
      fail(Argument("parameters"), "\"", entry.name, "\" is given twice");
    if (entry.shape != it->shape) {
      std::string want, got;
      for (std::size_t d : it->shape)
        want += (want.empty() ? "" : "x") + std::to_string(d);
      for (std::size_t d : entry.shape)
        got += (got.empty() ? "" : "x") + std::to_string(d);
      fail(Argument("parameters"), "\"", entry.name, "\" must have shape [", want, "], got [", got,
           "]");
    }
    if (entry.values.size() != it->size)
      fail(Argument("parameters"), "\"", entry.name, "\" must hold ", it->size, " values, got ",
           entry.values.size());
    if (!std::all_of(entry.values.begin(), entry.values.end(),
                     [](T x) { return std::isfinite(x); }))
      fail(Argument("parameters"), "\"", entry.name, "\" holds a non-finite value");
    found[k] = &entry;
  }
  for (std::size_t k = 0; k < layout.size(); ++k)
    if (!found[k])
      fail(Argument("parameters"), "\"", layout[k].name, "\" is missing: give every parameter");
  for (std::size_t k = 0; k < layout.size(); ++k)
    std::copy(found[k]->values.begin(), found[k]->values.end(),
              parameters.data() + layout[k].offset);
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
    T *out = parameters.data() + info.offset;
    if (specs[k].constant) {
      std::fill(out, out + info.size, static_cast<T>(*specs[k].constant));
      continue;
    }
    const double bound = specs[k].bound;
    const std::size_t rows = info.shape[0], cols = info.size / rows;
    const Matrix<double> drawn = bound == 0 ? random.randn(rows, cols) : random.rand(rows, cols);
    for (std::size_t i = 0; i < info.size; ++i)
      out[i] = static_cast<T>(bound == 0 ? drawn.data()[i] : -bound + 2 * bound * drawn.data()[i]);
  }
}

template class ParameterSet<float>;
template class ParameterSet<double>;
template void assign_all(ParameterSet<float> &, const std::vector<NamedValues<float>> &);
template void assign_all(ParameterSet<double> &, const std::vector<NamedValues<double>> &);
template void initialise(ParameterSet<float> &, const std::vector<nn::ParameterSpec> &,
                         std::int64_t);
template void initialise(ParameterSet<double> &, const std::vector<nn::ParameterSpec> &,
                         std::int64_t);

} // namespace attention
