// Tensor files (.npy, safetensors) read into named float64 tensors.
#include "attention/tensor_files.hpp"
#include "convert.hpp"

namespace binding {
namespace {

// [{ name, dtype, shape, data (Float64Array, C order) }, …] of a .npy or safetensors file; a .npy's
// one tensor is called npyName.
val read_tensors(val bytes, std::string npy_name) {
  return guarded([&] {
    std::vector<std::uint8_t> data(bytes["length"].as<std::size_t>());
    fill_from(data, bytes);
    val out = val::array();
    for (const auto &tensor : at::read_tensors(data.data(), data.size(), npy_name)) {
      val entry = val::object();
      entry.set("name", tensor.name);
      entry.set("dtype", tensor.dtype);
      val shape = val::array();
      for (std::size_t d : tensor.shape)
        shape.call<void>("push", d);
      entry.set("shape", shape);
      entry.set("data",
                val(typed_memory_view(tensor.data.size(), tensor.data.data())).call<val>("slice"));
      out.call<void>("push", entry);
    }
    return out;
  });
}

} // namespace
} // namespace binding

EMSCRIPTEN_BINDINGS(files) { emscripten::function("readTensors", &binding::read_tensors); }
