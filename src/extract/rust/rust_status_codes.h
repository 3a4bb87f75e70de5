// extract/rust/rust_status_codes: the names Rust web and RPC crates give
// error statuses, and what a user sees for them: the http crate's StatusCode
// constants (axum/actix responses) and tonic's Status constructors.
//
// Thread-safe (pure functions).
#pragma once

#include <optional>
#include <string_view>

namespace errdex {

// SERVICE_UNAVAILABLE -> 503 (4xx and 5xx only); nullopt for any other name.
std::optional<int> HttpStatusOf(std::string_view name);

// tonic::Status constructor (`invalid_argument`) -> the gRPC code's name
// (`InvalidArgument`); null for any other name.
const char* GrpcCodeOf(std::string_view ctor);

}  // namespace errdex
