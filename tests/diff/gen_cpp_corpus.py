#!/usr/bin/env python3
"""gen_cpp_corpus.py: writes a C++/CUDA corpus in the shape of an ML kernel repository.

The idioms are the ones counted on real repositories (../shared/research/languages.md,
section 2.1): a header of wrapper macros (stringized `#x` messages, TVM-FFI
`<<` streams, a FLASHINFER_CHECK-style ostringstream helper, printf-style
checks, CUDA error checks that print and exit), kernels' host functions using
them beside TORCH_CHECK, TVM_FFI_ICHECK_*, glog, PyErr_*, throw with `+`,
std::to_string, fmt::format and locals, dispatch macros taking lambdas,
`#if` branches. Names, messages and argument shapes are drawn from a seeded
generator, so the corpus is large and varied but the same on every run.
Nothing here says what the sites are: tests/diff/cpp_oracle.py asks clang.

  gen_cpp_corpus.py OUT_DIR [--files N] [--seed S]
"""
import argparse
import os
import random

WORDS = ('query key value cache page head batch token expert rank stride layout workspace indptr lengths scale '
         'bias mask window block tile group shard offset stream device dtype').split()


def ident(r):
    return r.choice(WORDS) + ('_' + r.choice(WORDS) if r.random() < 0.5 else '')


def message(r, n=None):
    n = n or r.randint(2, 6)
    return ' '.join(r.choice(WORDS + ['must', 'be', 'got', 'expected', 'invalid', 'unsupported', 'not', 'a'])
                    for _ in range(n))


HEADER = r'''// Wrapper macros, as kernel repositories define them.
#pragma once
#include <sstream>
#define CHECK_CUDA(x) TORCH_CHECK(x.is_cuda(), #x " must be a CUDA tensor")
#define CHECK_CONTIGUOUS(x) TORCH_CHECK(x.is_contiguous(), #x " must be contiguous")
#define CHECK_INPUT(x) \
  CHECK_CUDA(x);       \
  CHECK_CONTIGUOUS(x)
#define CHECK_DIM(d, x) TVM_FFI_ICHECK_EQ(x.ndim(), d) << #x " must be a " #d "D tensor";
#define CHECK_SHAPE(x, ...) TORCH_CHECK(x.sizes() == IntArrayRef({__VA_ARGS__}), #x " must have shape (" #__VA_ARGS__ ")")
#define MY_ERROR(message) throw my::Error(__FUNCTION__, __FILE__, __LINE__, message)
inline void write_to_stream(std::ostringstream& oss) {}
template <typename T>
void write_to_stream(std::ostringstream& oss, T&& val) { oss << val; }
template <typename T, typename... Args>
void write_to_stream(std::ostringstream& oss, T&& val, Args&&... args) {
  oss << val << " ";
  write_to_stream(oss, args...);
}
#define MY_CHECK(condition, ...)             \
  do {                                       \
    if (!(condition)) {                      \
      std::ostringstream oss;                \
      write_to_stream(oss, ##__VA_ARGS__);   \
      std::string msg = oss.str();           \
      if (msg.empty()) {                     \
        msg = "Check failed: " #condition;   \
      }                                      \
      MY_ERROR(msg);                         \
    }                                        \
  } while (0)
#define MY_CUDA_CALL(func)                                                      \
  do {                                                                          \
    cudaError_t e = (func);                                                     \
    if (e != cudaSuccess) {                                                     \
      fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); \
      exit(1);                                                                  \
    }                                                                           \
  } while (0)
#define TLLM_CHECK_WITH_INFO(val, info, ...) \
  do {                                       \
    if (!(val)) throw std::runtime_error(fmtstr(info, ##__VA_ARGS__)); \
  } while (0)
#define DISPATCH_DTYPE(dtype, c_type, ...)               \
  [&]() -> bool {                                        \
    switch (dtype) {                                     \
      case 0: { using c_type = float; return __VA_ARGS__(); } \
      case 1: { using c_type = half; return __VA_ARGS__(); }  \
      default:                                           \
        TVM_FFI_ICHECK(false) << "failed to dispatch data type " << (dtype); \
        return false;                                    \
    }                                                    \
  }()
'''


def statement(r, t, n):
    """One error idiom with fresh names: a list of lines."""
    k = r.randrange(22)
    m = message(r)
    if k == 0:
        return [f'TORCH_CHECK({t}.dim() == {r.randint(1, 5)}, "{m} ", {t}.dim());']
    if k == 1:
        return [f'TORCH_CHECK({n} > 0, "{m}");']
    if k == 2:
        return [f'TORCH_CHECK({t}.size(0) == {n});']
    if k == 3:
        return [f'CHECK_INPUT({t});']
    if k == 4:
        return [f'CHECK_DIM({r.randint(1, 4)}, {t});']
    if k == 5:
        return [f'TVM_FFI_ICHECK({n} % {r.choice([8, 16, 32])} == 0) << "{m}, got " << {n};']
    if k == 6:
        return [f'TVM_FFI_ICHECK_LE({n}, {r.randint(64, 4096)})', f'    << "{m}" << " (" << {n} << ")";']
    if k == 7:
        return [f'TVM_FFI_THROW({r.choice(["ValueError", "TypeError", "RuntimeError"])}) << "{m}: " << {n};']
    if k == 8:
        return [f'MY_CHECK({n} >= 0, "{m}", {n});']
    if k == 9:
        return [f'MY_CHECK({t}.numel() != 0);']
    if k == 10:
        return ['std::ostringstream err_msg;', f'err_msg << "{m} " << {n} << " for " << "{ident(r)}";',
                'MY_ERROR(err_msg.str());']
    if k == 11:
        return [f'std::string msg = "{m}: " + std::to_string({n});', f'msg += " ({ident(r)})";',
                'throw std::invalid_argument(msg);']
    if k == 12:
        return [f'throw std::runtime_error("{m} " + std::to_string({n}) + " and " + std::string("{ident(r)}"));']
    if k == 13:
        return [f'throw std::out_of_range(fmt::format("{m} {{}} of {{}}", {n}, {t}.size(0)));']
    if k == 14:
        return [f'PyErr_SetString(PyExc_{r.choice(["ValueError", "TypeError", "RuntimeError"])}, "{m}");']
    if k == 15:
        return [f'PyErr_Format(PyExc_ValueError, "{m} %d (%s)", (int){n}, "{ident(r)}");']
    if k == 16:
        return [f'LOG(FATAL) << "{m} " << {n};'] if r.random() < 0.5 else [f'LOG(WARNING) << "{m}";']
    if k == 17:
        return [f'CHECK_EQ({n}, {r.randint(0, 9)}) << "{m}";']
    if k == 18:
        return [f'assert({n} != {r.randint(0, 9)} && "{m}");']
    if k == 19:
        # Declared names only: clang sets aside a function it reports an error in.
        return [f'MY_CUDA_CALL(cudaMemsetAsync(nullptr, 0, {n}, nullptr));']
    if k == 20:
        return [f'TLLM_CHECK_WITH_INFO({n} < {r.randint(2, 99)}, "{m} %d > %d", (int){n}, {r.randint(2, 99)});']
    return [f'if ({n} == {r.randint(0, 99)}) {{', f'  throw std::logic_error("{m}");', '}']


def kernel_file(r, idx):
    lines = ['#include "utils.h"', '#include <torch/extension.h>', '']
    lines.append(f'namespace kernels{idx % 7} {{')
    for f in range(r.randint(2, 6)):
        t, n = ident(r), ident(r) + '_n'
        lines.append('')
        if r.random() < 0.3:
            lines.append('#ifdef ENABLE_FP8')
            lines.append(f'void run_{f}_{ident(r)}(at::Tensor {t}, int64_t {n}) {{')
            lines.append('#else')
            lines.append(f'void run_{f}_{ident(r)}(at::Tensor {t}, int {n}) {{')
            lines.append('#endif')
        else:
            lines.append(f'void run_{f}_{ident(r)}(at::Tensor {t}, int64_t {n}) {{')
        for _ in range(r.randint(1, 6)):
            body = statement(r, t, n)
            if r.random() < 0.2:
                lines.append(f'  if ({n} > {r.randint(0, 9)}) {{')
                lines += ['    ' + b for b in body]
                lines.append('  }')
            elif r.random() < 0.15:
                lines.append(f'  {{ bool ok = DISPATCH_DTYPE({n}, c_type, [&] {{')
                lines += ['    ' + b for b in body]
                lines.append('    return true;')
                lines.append('  }); }')
            elif any(b.startswith(('std::', 'bool ')) for b in body):
                lines.append('  {')  # its own scope: the locals are declared once
                lines += ['    ' + b for b in body]
                lines.append('  }')
            else:
                lines += ['  ' + b for b in body]
        lines.append('}')
    lines.append('')
    lines.append(f'}}  // namespace kernels{idx % 7}')
    return '\n'.join(lines) + '\n'


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('out')
    ap.add_argument('--files', type=int, default=40)
    ap.add_argument('--seed', type=int, default=13)
    a = ap.parse_args()
    r = random.Random(a.seed)
    os.makedirs(os.path.join(a.out, 'csrc'), exist_ok=True)
    with open(os.path.join(a.out, 'csrc', 'utils.h'), 'w') as fh:
        fh.write(HEADER)
    for i in range(a.files):
        ext = r.choice(['.cu', '.cu', '.cc', '.cpp'])
        with open(os.path.join(a.out, 'csrc', f'kernel_{i:03d}{ext}'), 'w') as fh:
            fh.write(kernel_file(r, i))


if __name__ == '__main__':
    main()
