// scan/spool_codec: the bytes a parsed file takes in the scan's spool (unit_spool.h)
// when it does not fit the memory budget -- its records, facts, gathered site
// contexts and stats, field by field in binary.
//
// Why not the stored payload (store/unit.h's EncodePayload, JSON per record)?
// The spool is written and read back within one scan by one binary, so it
// needs no stable or readable form; the JSON round trip (nlohmann's DOM and
// the strict key check) was a quarter of a flashinfer scan's instructions.
// The bytes are not stable across builds: never store them.
#pragma once

#include <string>
#include <string_view>

#include "model/status.h"
#include "store/unit.h"

namespace errdex {

// Records (with facts, context and gathered context), kind and stats of `unit`.
// The unit's key, repo, path, knowledge, deps and variant are not written.
std::string EncodeSpooled(const Unit& unit);
// Fills what EncodeSpooled wrote into `unit`. kIoError on damage.
Status DecodeSpooled(std::string_view bytes, Unit* unit);

}  // namespace errdex
