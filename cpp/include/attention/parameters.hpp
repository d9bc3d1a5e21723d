// Named tensors in one flat buffer, in PyTorch's state_dict order, for any model: its parameters,
// a set of gradients or Adam's moments of the same layout (training/initialise.hpp makes the
// layout and PyTorch's default initial values from the layers' parameter specs).
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace attention {

struct ParameterInfo {
  std::string name;               // PyTorch's: "decoder.gru.weight_ih_l0"
  std::vector<std::size_t> shape; // PyTorch's: {3 * hidden, embedding}
  std::size_t offset, size;       // where its values sit in the flat buffer, and how many
};

// One tensor of a ParameterSet, read or written in place.
template <class T> struct ParameterView {
  const ParameterInfo &info; // name, shape, size
  T *values;                 // info.size values, row-major
};

using ParameterLayout = std::shared_ptr<const std::vector<ParameterInfo>>;

template <class T> class ParameterSet {
public:
  ParameterSet() = default;
  // All zeros.
  explicit ParameterSet(ParameterLayout layout);

  const std::vector<ParameterInfo> &layout() const { return *layout_; }
  // The layout itself, to make gradients, moments or a trainer of it.
  const ParameterLayout &shared_layout() const { return layout_; }
  std::vector<std::string> names() const;
  // Unknown name: InputError blaming "parameter".
  const ParameterInfo &info(const std::string &name) const;
  T *values(const std::string &name) { return flat_.data() + info(name).offset; }
  const T *values(const std::string &name) const { return flat_.data() + info(name).offset; }
  // Copies `values` (row-major, of `shape`) into the named tensor; a shape other than the
  // tensor's blames "shape", a non-finite value "values". Nothing changes when it throws.
  void assign(const std::string &name, const std::vector<std::size_t> &shape, const T *values);

  T *data() { return flat_.data(); }
  const T *data() const { return flat_.data(); }
  std::size_t size() const { return flat_.size(); }
  // Same names and shapes in the same order.
  bool same_layout(const ParameterSet &other) const;

private:
  ParameterLayout layout_ = std::make_shared<const std::vector<ParameterInfo>>();
  std::vector<T> flat_;
};

// One tensor's values given by name, as a caller hands in a whole state_dict.
template <class T> struct NamedValues {
  std::string name;
  std::vector<std::size_t> shape;
  std::vector<T> values;
};

// Sets every tensor of `parameters` at once: `named` must hold exactly its names, each once with
// its shape and finite values, or InputError blames "parameters" and nothing changes.
template <class T>
void assign_all(ParameterSet<T> &parameters, const std::vector<NamedValues<T>> &named);

extern template class ParameterSet<float>;
extern template class ParameterSet<double>;
extern template void assign_all(ParameterSet<float> &, const std::vector<NamedValues<float>> &);
extern template void assign_all(ParameterSet<double> &, const std::vector<NamedValues<double>> &);

} // namespace attention
