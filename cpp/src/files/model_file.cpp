#include "files/model_file.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "attention/errors.hpp"
#include "core/precision.hpp"

namespace attention {

namespace {

using detail::Argument;
using detail::fail;

template <class T> const char *dtype_name() { return sizeof(T) == 4 ? "F32" : "F64"; }

} // namespace

template <class T>
std::vector<std::uint8_t> save_model_file(const ParameterSet<T> &parameters,
                                          const std::string &format, const Metadata &metadata,
                                          bool float16) {
  std::vector<std::uint16_t> halves; // the float16 bits, when stored so
  if (float16) {
    halves.resize(parameters.size());
    for (std::size_t i = 0; i < parameters.size(); ++i) {
      halves[i] = precision::float16_from_double(parameters.data()[i]);
      if (!std::isfinite(precision::float16_to_double(halves[i])))
        fail(Argument("dtype"), "a parameter (", parameters.data()[i],
             ") is beyond float16's range: save it as ", precision_name<T>());
    }
  }
  std::vector<safetensors::TensorBytes> tensors;
  for (const auto &info : parameters.layout())
    tensors.push_back(float16 ? safetensors::TensorBytes{info.name, "F16", info.shape,
                                                         reinterpret_cast<const std::uint8_t *>(
                                                             halves.data() + info.offset)}
                              : safetensors::TensorBytes{info.name, dtype_name<T>(), info.shape,
                                                         reinterpret_cast<const std::uint8_t *>(
                                                             parameters.data() + info.offset)});
  Metadata all{{"format", format}};
  all.insert(all.end(), metadata.begin(), metadata.end());
  all.emplace_back("precision", precision_name<T>());
  return safetensors::write(tensors, all);
}

const std::string *find_metadata(const safetensors::File &file, const std::string &key) {
  for (const auto &[name, value] : file.metadata)
    if (name == key)
      return &value;
  return nullptr;
}

std::int64_t metadata_integer(const std::string &text, const std::string &key) {
  if (text.empty() || text.size() > 12 ||
      !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
    fail(Argument("bytes"), "the file's metadata \"", key, "\" is not a whole number: \"",
         text.substr(0, 40), "\"");
  std::int64_t value = 0; // the digits by hand: std::stoll would bring strtoll into the module
  for (const char c : text)
    value = value * 10 + (c - '0');
  return value;
}

double metadata_number(const std::string &text, const std::string &key) {
  const auto refuse = [&] {
    fail(Argument("bytes"), "the file's metadata \"", key, "\" is not a number >= 0: \"",
         text.substr(0, 40), "\"");
  };
  // text = digits * 10^power
  std::uint64_t digits = 0;
  int significant = 0, power = 0;
  bool point = false, any = false;
  std::size_t i = 0;
  for (; i < text.size() && ((text[i] >= '0' && text[i] <= '9') || (text[i] == '.' && !point));
       ++i) {
    if (text[i] == '.') {
      point = true;
      continue;
    }
    any = true;
    if (digits == 0 && text[i] == '0') { // a leading zero
      power -= point;
      continue;
    }
    if (++significant > 17)
      refuse();
    digits = digits * 10 + std::uint64_t(text[i] - '0');
    power -= point;
  }
  if (i < text.size() && text[i] == 'e' && i + 2 < text.size() && text.size() - i <= 5 &&
      (text[i + 1] == '-' || text[i + 1] == '+')) {
    const std::int64_t exponent = metadata_integer(text.substr(i + 2), key);
    power += text[i + 1] == '-' ? -int(exponent) : int(exponent);
    i = text.size();
  }
  if (!any || i != text.size() || power < -22 || power > 22)
    refuse();
  // powers of ten up to 1e22 are exact doubles: one rounding, exact below 2^53
  double scale = 1;
  for (int k = 0; k < std::abs(power); ++k)
    scale *= 10;
  return power < 0 ? double(digits) / scale : double(digits) * scale;
}

bool is_state_dict(const safetensors::File &file) {
  const std::string *format = find_metadata(file, "format");
  return !format || *format == "pt";
}

SavedMetadata::SavedMetadata(const safetensors::File &file, const std::string &format,
                             const char *what)
    : file_(file), what_(what) {
  if (text("format") != format)
    fail(Argument("bytes"), "the file is not ", what, ": its format is \"",
         text("format").substr(0, 60), "\"");
}

const std::string &SavedMetadata::text(const char *key) const {
  if (const std::string *value = find_metadata(file_, key))
    return *value;
  fail(Argument("bytes"), "the file is not ", what_, ": its metadata lacks \"", key, "\"");
}

std::string SavedMetadata::precision() const {
  const std::string &precision = text("precision");
  if (precision != "float32" && precision != "float64")
    fail(Argument("bytes"), "the file's precision must be float32 or float64, got \"",
         precision.substr(0, 40), "\"");
  return precision;
}

template <class T> void require_precision(const std::string &precision) {
  if (precision != precision_name<T>())
    fail(Argument("bytes"), "the file holds a ", precision, " model, not ", precision_name<T>());
}

template <class T>
void load_model_file(const safetensors::File &file, ParameterSet<T> &parameters) {
  const auto &layout = parameters.layout();
  if (file.tensors.size() != layout.size())
    fail(Argument("bytes"), "the file holds ", file.tensors.size(), " tensors, but its model has ",
         layout.size(), " parameters");
  const char *dtype = dtype_name<T>();
  std::vector<T> values(parameters.size()); // all read and checked before any is set
  for (const auto &info : layout) {
    const safetensors::TensorInfo *tensor = file.find(info.name);
    if (!tensor)
      fail(Argument("bytes"), "the file lacks the parameter \"", info.name, "\"");
    // I64: PyTorch's dtype for a batch norm's num_batches_tracked (ours hold it as T)
    const bool half = tensor->dtype == "F16", whole = tensor->dtype == "I64";
    if ((tensor->dtype != dtype && !half && !whole) || tensor->shape != info.shape)
      fail(Argument("bytes"), "the file's \"", info.name, "\" is not ", dtype,
           " (or F16, I64) of the shape its metadata's model has");
    T *out = values.data() + info.offset;
    if (half) {
      for (std::size_t i = 0; i < info.size; ++i) {
        std::uint16_t bits;
        std::memcpy(&bits, file.data + tensor->begin + 2 * i, 2);
        out[i] = static_cast<T>(precision::float16_to_double(bits));
      }
    } else if (whole) {
      for (std::size_t i = 0; i < info.size; ++i) {
        std::int64_t value;
        std::memcpy(&value, file.data + tensor->begin + 8 * i, 8);
        out[i] = static_cast<T>(value);
      }
    } else {
      std::memcpy(out, file.data + tensor->begin, info.size * sizeof(T));
    }
    if (!std::all_of(out, out + info.size, [](T x) { return std::isfinite(x); }))
      fail(Argument("bytes"), "the file's \"", info.name, "\" holds a non-finite value");
  }
  std::copy(values.begin(), values.end(), parameters.data());
}

template std::vector<std::uint8_t> save_model_file(const ParameterSet<float> &, const std::string &,
                                                   const Metadata &, bool);
template std::vector<std::uint8_t> save_model_file(const ParameterSet<double> &,
                                                   const std::string &, const Metadata &, bool);
template void require_precision<float>(const std::string &);
template void require_precision<double>(const std::string &);
template void load_model_file(const safetensors::File &, ParameterSet<float> &);
template void load_model_file(const safetensors::File &, ParameterSet<double> &);

} // namespace attention
