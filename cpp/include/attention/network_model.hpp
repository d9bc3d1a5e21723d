// What every kind's model is besides its own computations: its configuration, its parameters (one
// flat buffer under PyTorch's names, parameters.hpp) to read, write in place or load by name, and
// its network, the layers and their buffers, reused across calls, which only the model's own
// sources know (models/<kind>/network.hpp). Each kind's model (its public header) derives from
// NetworkModel<T, its Config, its Network<T>>.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "parameters.hpp"

namespace attention {

template <class T, class Config, class Network> class NetworkModel {
public:
  ~NetworkModel();
  NetworkModel(NetworkModel &&) noexcept;
  NetworkModel &operator=(NetworkModel &&) noexcept;

  const Config &config() const { return config_; }
  std::vector<std::string> parameter_names() const { return parameters_.names(); }
  const ParameterSet<T> &parameters() const { return parameters_; }
  // To change the values in place (an optimiser's steps); the layout must stay.
  ParameterSet<T> &parameters() { return parameters_; }
  // One parameter by its PyTorch name, to read or write in place; an unknown name throws
  // InputError blaming "parameter".
  ParameterView<T> parameter(const std::string &name) {
    return {parameters_.info(name), parameters_.values(name)};
  }
  ParameterView<const T> parameter(const std::string &name) const {
    return {parameters_.info(name), parameters_.values(name)};
  }
  // Loads one tensor of a PyTorch state_dict, checked as ParameterSet::assign checks it.
  void set_parameter(const std::string &name, const std::vector<std::size_t> &shape,
                     const T *values) {
    parameters_.assign(name, shape, values);
  }
  // A zeroed set of the parameters' layout, for loss_and_gradients.
  ParameterSet<T> make_gradients() const { return ParameterSet<T>(parameters_.shared_layout()); }

protected:
  // The configuration validated (validate(config), InputError naming the field at fault), the
  // parameters of specs_of(config) initialised from config.seed with PyTorch's default
  // distributions, and the network over them (models/model_parts.hpp).
  template <class SpecsOf> NetworkModel(const Config &config, SpecsOf specs_of);

  Config config_;
  ParameterSet<T> parameters_;
  std::unique_ptr<Network> network_;
};

} // namespace attention

// A model, Model<T> over NetworkModel<T, Model##Config, Model##Network<T>>, in float and double:
// declared instantiated elsewhere in its header (ATTENTION_EXTERN_MODEL), instantiated in its
// model.cpp (ATTENTION_INSTANTIATE_MODEL).
#define ATTENTION_MODEL_INSTANCES(declared, Model)                                                 \
  declared template class NetworkModel<float, Model##Config, Model##Network<float>>;               \
  declared template class NetworkModel<double, Model##Config, Model##Network<double>>;             \
  declared template class Model<float>;                                                            \
  declared template class Model<double>
#define ATTENTION_EXTERN_MODEL(Model) ATTENTION_MODEL_INSTANCES(extern, Model)
#define ATTENTION_INSTANTIATE_MODEL(Model) ATTENTION_MODEL_INSTANCES(, Model)
