// NetworkModel's constructor and special members (network_model.hpp), where a model's network is
// known: its model.cpp includes this after its network.hpp and instantiates NetworkModel with it.
#pragma once

#include <memory>
#include <utility>

#include "attention/network_model.hpp"
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

} // namespace attention
