// NetworkModel's constructor and special members, and TranslationModel's loss (network_model.hpp),
// where a model's network is known: its model.cpp includes this after its network.hpp and
// instantiates them with it.
#pragma once

#include <memory>
#include <utility>

#include "attention/network_model.hpp"
#include "models/checks.hpp"
#include "training/initialise.hpp"

namespace attention {

template <class T, class Config, class Network>
template <class SpecsOf>
NetworkModel<T, Config, Network>::NetworkModel(const Config &config, SpecsOf specs_of)
    : config_(config) {
  validate(config);
  const auto specs = specs_of(config);
  parameters_ = ParameterSet<T>(make_layout(specs));
  initialise(parameters_, specs, config.seed);
  network_ = std::make_unique<Network>(config, parameters_);
}

template <class T, class Config, class Network>
NetworkModel<T, Config, Network>::~NetworkModel() = default;
template <class T, class Config, class Network>
NetworkModel<T, Config, Network>::NetworkModel(NetworkModel &&) noexcept = default;
template <class T, class Config, class Network>
NetworkModel<T, Config, Network> &
NetworkModel<T, Config, Network>::operator=(NetworkModel &&) noexcept = default;

template <class T, class Config, class Network>
T TranslationModel<T, Config, Network>::loss(const std::vector<SentencePair> &batch, T guide) {
  return models::translation_loss(*this->network_, this->parameters_, batch, this->config_, guide);
}

template <class T, class Config, class Network>
T TranslationModel<T, Config, Network>::loss_and_gradients(const std::vector<SentencePair> &batch,
                                                           ParameterSet<T> &gradients, T guide) {
  return models::translation_loss(*this->network_, this->parameters_, batch, this->config_, guide,
                                  &gradients);
}

} // namespace attention
