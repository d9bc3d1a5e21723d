#include "attention/errors.hpp"

#include "core/decimal.hpp"

namespace attention::detail {

std::string shape_text(const std::size_t *extents, std::size_t rank) {
  std::string out = "[";
  for (std::size_t i = 0; i < rank; ++i)
    out += (i ? "x" : "") + std::to_string(extents[i]);
  return out + "]";
}

void MessagePart::append_to(std::string &message) const {
  switch (kind_) {
  case Kind::text:
    message.append(text_, size_);
    break;
  case Kind::character:
    message += static_cast<char>(signed_);
    break;
  case Kind::signed_integer:
    message += std::to_string(signed_);
    break;
  case Kind::unsigned_integer:
    message += std::to_string(unsigned_);
    break;
  case Kind::real:
    message += format_general(real_, 6); // printf's %g
    break;
  case Kind::shape:
    message += shape_text(extents_, size_);
    break;
  }
}

void fail_with(const char *argument, std::initializer_list<MessagePart> parts) {
  std::string message;
  for (const MessagePart &part : parts)
    part.append_to(message);
  throw InputError(argument, message);
}

} // namespace attention::detail
