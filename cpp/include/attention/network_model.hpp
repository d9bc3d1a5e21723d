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
#include "sentences.hpp"

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

// What the models of the translation kinds add alike: the loss of a batch of sentence pairs and
// its gradients (models/model_parts.hpp).
template <class T, class Config, class Network>
class TranslationModel : public NetworkModel<T, Config, Network> {
public:
  // The mean cross-entropy over every target token of the batch, run as one padded, masked
  // minibatch, plus `guide` (λ, finite and >= 0) times the guided-alignment term of the pairs'
  // guides. Bad pairs throw InputError blaming "batch", "source", "target" or "guide".
  T loss(const std::vector<SentencePair> &batch, T guide = 0);
  // The same, and its gradient with respect to every parameter, written over `gradients`.
  T loss_and_gradients(const std::vector<SentencePair> &batch, ParameterSet<T> &gradients,
                       T guide = 0);

protected:
  using NetworkModel<T, Config, Network>::NetworkModel;
};

} // namespace attention

// A model, Model<T> over NetworkModel<T, Model##Config, Model##Network<T>>, in float and double:
// declared instantiated elsewhere in its header (ATTENTION_EXTERN_MODEL), instantiated in its
// model.cpp (ATTENTION_INSTANTIATE_MODEL); a translation model's TranslationModel with it
// (ATTENTION_EXTERN_TRANSLATION_MODEL, ATTENTION_INSTANTIATE_TRANSLATION_MODEL).
#define ATTENTION_BASE_INSTANCES(declared, Base, Model)                                            \
  declared template class Base<float, Model##Config, Model##Network<float>>;                       \
  declared template class Base<double, Model##Config, Model##Network<double>>
#define ATTENTION_MODEL_INSTANCES(declared, Model)                                                 \
  ATTENTION_BASE_INSTANCES(declared, NetworkModel, Model);                                         \
  declared template class Model<float>;                                                            \
  declared template class Model<double>
#define ATTENTION_EXTERN_MODEL(Model) ATTENTION_MODEL_INSTANCES(extern, Model)
#define ATTENTION_INSTANTIATE_MODEL(Model) ATTENTION_MODEL_INSTANCES(, Model)
#define ATTENTION_EXTERN_TRANSLATION_MODEL(Model)                                                  \
  ATTENTION_BASE_INSTANCES(extern, TranslationModel, Model);                                       \
  ATTENTION_EXTERN_MODEL(Model)
#define ATTENTION_INSTANTIATE_TRANSLATION_MODEL(Model)                                             \
  ATTENTION_BASE_INSTANCES(, TranslationModel, Model);                                             \
  ATTENTION_INSTANTIATE_MODEL(Model)
