// numpy's RandomState, its state held by the caller.
#include "attention/numpy_random.hpp"
#include "convert.hpp"

namespace binding {
namespace {

val random_state_to_js(const at::NumpyRandomStateData &state) {
  val out = val::object();
  out.set("key", typed_copy(state.key));
  out.set("pos", state.pos);
  out.set("hasGauss", state.has_gauss);
  out.set("gauss", state.gauss);
  return out;
}

val random_seed(double seed) {
  return guarded([&] {
    return random_state_to_js(at::NumpyRandomState(static_cast<std::int64_t>(seed)).state());
  });
}

val random_draw(val state, std::string kind, double high, std::size_t rows, std::size_t cols) {
  return guarded([&] {
    at::NumpyRandomStateData data;
    fill_from(data.key, state["key"]);
    data.pos = state["pos"].as<std::uint32_t>();
    data.has_gauss = state["hasGauss"].as<bool>();
    data.gauss = state["gauss"].as<double>();
    at::NumpyRandomState random(data);
    const at::Matrix<double> values =
        random.draw(kind, static_cast<std::int64_t>(high), rows, cols);
    val out = val::object();
    out.set("values", from_matrix(values));
    out.set("state", random_state_to_js(random.state()));
    return out;
  });
}

} // namespace
} // namespace binding

EMSCRIPTEN_BINDINGS(random) {
  emscripten::function("randomSeed", &binding::random_seed);
  emscripten::function("randomDraw", &binding::random_draw);
  emscripten::constant("maxSeed", static_cast<double>(attention::max_seed));
}
