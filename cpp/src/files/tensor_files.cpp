#include "attention/tensor_files.hpp"

#include <cstring>
#include <limits>

#include "attention/errors.hpp"
#include "core/precision.hpp"
#include "files/header_reader.hpp"
#include "files/safetensors.hpp"

namespace attention {

namespace {

// The header is a Python dict literal, as numpy writes it:
// {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }
// This reader takes exactly the literals numpy's format can hold there (strings, True/False,
// tuples of non-negative integers), with bounds on every read.
class PythonLiteral : public files::HeaderReader<PythonLiteral> {
public:
  static constexpr files::HeaderSyntax syntax{"a .npy file numpy can read", "dict", true};
  using HeaderReader::HeaderReader;

  std::string string() {
    skip_space();
    if (at_ == end_ || (*at_ != '\'' && *at_ != '"'))
      refuse("the header's dict is malformed (expected a string)");
    const char quote = *at_++;
    std::string out;
    while (at_ < end_ && *at_ != quote) {
      if (*at_ == '\\' || static_cast<unsigned char>(*at_) < 0x20)
        refuse("a string in the header holds an escape or control character");
      out += *at_++;
    }
    if (at_ == end_)
      refuse("a string in the header does not end");
    ++at_;
    return out;
  }

  bool boolean() {
    skip_space();
    if (word("True"))
      return true;
    if (word("False"))
      return false;
    refuse("fortran_order is neither True nor False");
  }

  // A tuple of non-negative integers: (), (3,), (3, 4).
  std::vector<std::size_t> shape() {
    std::vector<std::size_t> out;
    list('(', ')', [&] {
      if (out.size() == 32)
        refuse("the shape has more than 32 dimensions");
      out.push_back(digits("the shape holds something other than non-negative integers",
                           "an extent of the shape is too large"));
    });
    return out;
  }

  void finish() {
    skip_space();
    if (at_ != end_)
      refuse("the header has text after its dict");
  }
};

// The rest of the file refused as its header's reader refuses it.
template <class... Parts> [[noreturn]] void refuse(const Parts &...parts) {
  PythonLiteral::refuse(parts...);
}

struct TypeInfo {
  const char *code; // numpy's type code after the byte order: "f4"
  npy::Type type;
  const char *name;
  std::size_t size;
};

constexpr TypeInfo types[] = {
    {"f2", npy::Type::float16, "float16", 2}, {"f4", npy::Type::float32, "float32", 4},
    {"f8", npy::Type::float64, "float64", 8}, {"i1", npy::Type::int8, "int8", 1},
    {"i2", npy::Type::int16, "int16", 2},     {"i4", npy::Type::int32, "int32", 4},
    {"i8", npy::Type::int64, "int64", 8},     {"u1", npy::Type::uint8, "uint8", 1},
    {"u2", npy::Type::uint16, "uint16", 2},   {"u4", npy::Type::uint32, "uint32", 4},
    {"u8", npy::Type::uint64, "uint64", 8},   {"b1", npy::Type::boolean, "bool", 1}};

const TypeInfo &info(npy::Type type) {
  for (const auto &t : types)
    if (t.type == type)
      return t;
  return types[0]; // unreachable: every Type is in the table
}

// prod(shape), refused above max_elements (the doubles it becomes must fit the engine's memory).
std::size_t element_count(const std::vector<std::size_t> &shape, const char *what) {
  std::size_t count = 1;
  for (std::size_t extent : shape) {
    if (extent != 0 && count > detail::max_elements / extent)
      detail::fail(detail::Argument("bytes"), what, " has shape ",
                   detail::Shape{shape.data(), shape.size()}, ", more than the ",
                   detail::max_elements, " elements the engine reads");
    count *= extent;
  }
  return count;
}

std::uint64_t load_bits(const std::uint8_t *at, std::size_t size, bool big_endian) {
  std::uint64_t bits = 0;
  for (std::size_t i = 0; i < size; ++i)
    bits |= std::uint64_t(at[big_endian ? size - 1 - i : i]) << (8 * i);
  return bits;
}

template <class To> To bit_cast(std::uint64_t bits) {
  To out;
  if constexpr (sizeof(To) == 4) {
    const auto narrow = static_cast<std::uint32_t>(bits);
    std::memcpy(&out, &narrow, 4);
  } else {
    std::memcpy(&out, &bits, 8);
  }
  return out;
}

template <class Signed> double as_signed(std::uint64_t bits) {
  using Unsigned = std::make_unsigned_t<Signed>;
  return static_cast<double>(static_cast<Signed>(static_cast<Unsigned>(bits)));
}

double element(npy::Type type, std::uint64_t bits) {
  switch (type) {
  case npy::Type::float16:
    return precision::float16_to_double(static_cast<std::uint16_t>(bits));
  case npy::Type::float32:
    return bit_cast<float>(bits);
  case npy::Type::float64:
    return bit_cast<double>(bits);
  case npy::Type::int8:
    return as_signed<std::int8_t>(bits);
  case npy::Type::int16:
    return as_signed<std::int16_t>(bits);
  case npy::Type::int32:
    return as_signed<std::int32_t>(bits);
  case npy::Type::int64:
    return as_signed<std::int64_t>(bits);
  case npy::Type::boolean:
    return bits != 0;
  default: // the unsigned types
    return static_cast<double>(bits);
  }
}

// The elements at `data` as doubles, in C order (a Fortran-order array's are transposed).
std::vector<double> to_doubles(const std::uint8_t *data, npy::Type type, bool big_endian,
                               bool fortran_order, const std::vector<std::size_t> &shape,
                               std::size_t count) {
  const std::size_t size = info(type).size;
  std::vector<double> out(count);
  if (!fortran_order || shape.size() < 2) {
    for (std::size_t i = 0; i < count; ++i)
      out[i] = element(type, load_bits(data + i * size, size, big_endian));
    return out;
  }
  // Walk the C-order index like an odometer, tracking the Fortran-order offset of each element.
  const std::size_t rank = shape.size();
  std::vector<std::size_t> stride(rank, 1), index(rank, 0);
  for (std::size_t d = 1; d < rank; ++d)
    stride[d] = stride[d - 1] * shape[d - 1];
  std::size_t offset = 0;
  for (std::size_t i = 0; i < count; ++i) {
    out[i] = element(type, load_bits(data + offset * size, size, big_endian));
    for (std::size_t d = rank; d-- > 0;) {
      offset += stride[d];
      if (++index[d] < shape[d])
        break;
      offset -= stride[d] * shape[d];
      index[d] = 0;
    }
  }
  return out;
}

} // namespace

namespace npy {

Header parse(const std::uint8_t *bytes, std::size_t size) {
  static const char magic[] = "\x93NUMPY";
  if (size < 10 || std::memcmp(bytes, magic, 6) != 0)
    refuse("it does not start with the magic string \\x93NUMPY");
  const unsigned major = bytes[6];
  if (major < 1 || major > 3)
    refuse("format version ", major, ".", unsigned(bytes[7]), " is not 1.0, 2.0 or 3.0");
  const std::size_t length_bytes = major == 1 ? 2 : 4;
  if (size < 8 + length_bytes)
    refuse("it ends inside its header length");
  const std::size_t header_length = load_bits(bytes + 8, length_bytes, false);
  if (header_length > max_header_bytes)
    refuse("its header would be ", header_length, " bytes, more than numpy's limit of ",
           max_header_bytes);
  Header header;
  header.data_offset = 8 + length_bytes + header_length;
  if (header.data_offset > size)
    refuse("its header would be ", header_length, " bytes but only ", size - 8 - length_bytes,
           " follow");

  const char *text = reinterpret_cast<const char *>(bytes + 8 + length_bytes);
  PythonLiteral literal(text, text + header_length);
  bool descr = false, order = false, shape = false;
  literal.dict([&](const std::string &key) {
    if (key == "descr") {
      if (literal.peek('['))
        refuse("its dtype is a structured (record) dtype, which the engine does not read");
      const std::string code = literal.string();
      const TypeInfo *found = nullptr;
      if (code.size() == 3 && code[0] != '\0' && std::strchr("<>|=", code[0]))
        for (const auto &t : types)
          if (code.compare(1, 2, t.code) == 0)
            found = &t;
      if (!found)
        detail::fail(
            detail::Argument("bytes"), "dtype '", code.substr(0, 40),
            "' is not supported: the engine reads float16/32/64, int8-64, uint8-64 and bool");
      header.type = found->type;
      header.big_endian = code[0] == '>';
      descr = true;
    } else if (key == "fortran_order") {
      header.fortran_order = literal.boolean();
      order = true;
    } else if (key == "shape") {
      header.shape = literal.shape();
      shape = true;
    } else {
      refuse("its header has an unknown key '", key.substr(0, 40), "'");
    }
  });
  literal.finish();
  if (!descr || !order || !shape)
    refuse("its header needs descr, fortran_order and shape");

  const std::size_t count = element_count(header.shape, "the array");
  const std::size_t expected = count * info(header.type).size;
  if (size - header.data_offset != expected)
    refuse("its shape ", detail::Shape{header.shape.data(), header.shape.size()}, " of ",
           info(header.type).name, " needs ", expected, " bytes of data but ",
           size - header.data_offset, " follow the header",
           size - header.data_offset < expected ? " (the file is cut short)" : "");
  return header;
}

} // namespace npy

std::vector<NamedTensor> read_tensors(const std::uint8_t *bytes, std::size_t size,
                                      const std::string &npy_name) {
  std::vector<NamedTensor> out;
  if (size >= 6 && std::memcmp(bytes, "\x93NUMPY", 6) == 0) {
    const npy::Header header = npy::parse(bytes, size);
    const std::size_t count = element_count(header.shape, "the array");
    out.push_back({npy_name, info(header.type).name, header.shape,
                   to_doubles(bytes + header.data_offset, header.type, header.big_endian,
                              header.fortran_order, header.shape, count)});
    return out;
  }
  // a safetensors header is a JSON object
  if (size < 9 || bytes[8] != '{')
    detail::fail(detail::Argument("bytes"),
                 "bytes are neither a .npy, .npz nor safetensors file: they start with none of "
                 "their signatures");
  // safetensors' dtypes as numpy names them (bfloat16 is PyTorch's, numpy has none)
  static const std::pair<const char *, npy::Type> dtypes[] = {
      {"F64", npy::Type::float64}, {"F32", npy::Type::float32}, {"F16", npy::Type::float16},
      {"I64", npy::Type::int64},   {"I32", npy::Type::int32},   {"I16", npy::Type::int16},
      {"I8", npy::Type::int8},     {"U64", npy::Type::uint64},  {"U32", npy::Type::uint32},
      {"U16", npy::Type::uint16},  {"U8", npy::Type::uint8},    {"BOOL", npy::Type::boolean}};
  const safetensors::File file = safetensors::parse(bytes, size);
  for (const auto &tensor : file.tensors) {
    const std::string what = "tensor \"" + tensor.name + "\"";
    const std::size_t count = element_count(tensor.shape, what.c_str());
    NamedTensor named{tensor.name, "", tensor.shape, {}};
    const std::uint8_t *data = file.data + tensor.begin;
    if (tensor.dtype == "BF16") {
      named.dtype = "bfloat16";
      named.data.resize(count);
      for (std::size_t i = 0; i < count; ++i)
        named.data[i] = precision::bfloat16_to_float(
            static_cast<std::uint16_t>(load_bits(data + 2 * i, 2, false)));
    } else {
      const npy::Type *type = nullptr;
      for (const auto &[code, t] : dtypes)
        if (tensor.dtype == code)
          type = &t;
      if (!type)
        detail::fail(detail::Argument("bytes"), what, " has dtype ", tensor.dtype,
                     ", which the engine does not read");
      named.dtype = info(*type).name;
      named.data = to_doubles(data, *type, false, false, tensor.shape, count);
    }
    out.push_back(std::move(named));
  }
  return out;
}

} // namespace attention
