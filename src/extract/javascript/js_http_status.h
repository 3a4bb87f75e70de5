// HTTP statuses by name, as JavaScript servers spell them: the IANA reason
// phrases as UPPER_SNAKE (NestJS's HttpStatus.NOT_FOUND, http-status-codes'
// StatusCodes.NOT_FOUND), as CamelCase in class names (NestJS NotFoundException,
// http-errors createError.NotFound) and the http-errors class of a status. A
// table of names, apart from the walker that meets them.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace errdex::js {

// NOT_FOUND -> 404; nullopt for a name not in the table.
std::optional<int> StatusFromUpperName(std::string_view name);
// NotFound -> 404.
std::optional<int> StatusFromCamelName(std::string_view name);
// The http-errors class name of a status: 404 -> NotFoundError, 500 ->
// InternalServerError; HttpError for none or an unknown one.
std::string HttpErrorsClass(std::optional<int> status);

}  // namespace errdex::js
