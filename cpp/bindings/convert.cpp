#include "convert.hpp"

#include <new>
#include <stdexcept>

namespace binding {

val guard_call(val (*compute)(void *), void *context) {
  const char *kind = "Error";
  std::string message, argument;
  try {
    return compute(context);
  } catch (const at::InputError &error) {
    message = error.what();
    argument = error.argument();
  } catch (const std::bad_alloc &) {
    kind = "RangeError";
    message = "out of memory: the inputs are too large for WebAssembly memory";
  } catch (const std::exception &error) {
    message = error.what();
  }
  val error = val::global(kind).new_(val(message));
  if (!argument.empty())
    error.set("argument", argument);
  return error;
}

val rows_to_js(const at::Matrix<double> &m) {
  val rows = val::array();
  for (std::size_t i = 0; i < m.shape()[0]; ++i) {
    val row = val::array();
    for (std::size_t j = 0; j < m.shape()[1]; ++j)
      row.call<void>("push", m(i, j));
    rows.call<void>("push", row);
  }
  return rows;
}

std::vector<std::uint8_t> bytes_of(const val &bytes) {
  std::vector<std::uint8_t> data(bytes["length"].as<std::size_t>());
  fill_from(data, bytes);
  return data;
}

} // namespace binding
