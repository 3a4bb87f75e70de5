// Python front end (placeholder while the real extractor lands): returns no sites.
#include "extract/python/python_extractor.h"

namespace errdex {

PythonExtractResult ExtractPython(std::string_view path, std::string_view text) {
  return PythonExtractResult{};
}

}  // namespace errdex
