// cpp_prelude.h: what tests/diff/cpp_oracle.py gives clang in place of the
// headers it blanks (the real ones are absent, or would make the AST dump 20x
// larger): opaque stand-ins for the library types a kernel's signatures and
// messages use, and a declaration of each sink so its uses parse as calls. The
// sinks return a stream so `SINK(c) << "text" << x` parses as a << chain.
// Nothing here is errdex's: it is the oracle's model of the libraries.
typedef unsigned long size_t;
extern const char* __errdex_file__; extern int __errdex_line__;  // what __FILE__ / __LINE__ become
typedef signed char int8_t; typedef short int16_t; typedef int int32_t; typedef long int64_t;
typedef unsigned char uint8_t; typedef unsigned short uint16_t; typedef unsigned int uint32_t; typedef unsigned long uint64_t;
typedef long intptr_t; typedef unsigned long uintptr_t;
struct _IO_FILE; typedef struct _IO_FILE FILE; extern FILE* stderr; extern FILE* stdout;
int printf(const char*, ...); int fprintf(FILE*, const char*, ...); void exit(int); void abort(void);
#ifdef __cplusplus
// A value of a library type the oracle does not know: any operation type-checks.
struct __errdex_any {
  __errdex_any(); template <class T> __errdex_any(const T&);
  template <class T> operator T() const;
  template <class... A> __errdex_any operator()(A&&...) const;
  template <class T> __errdex_any operator[](const T&) const;
  __errdex_any* operator->() const; __errdex_any operator*() const; __errdex_any operator!() const;
  __errdex_any operator-() const;
};
#define ERRDEX_ANY_OP(op) template <class T> __errdex_any operator op(const __errdex_any&, const T&);
ERRDEX_ANY_OP(==) ERRDEX_ANY_OP(!=) ERRDEX_ANY_OP(<) ERRDEX_ANY_OP(<=) ERRDEX_ANY_OP(>) ERRDEX_ANY_OP(>=)
ERRDEX_ANY_OP(&&) ERRDEX_ANY_OP(||) ERRDEX_ANY_OP(+) ERRDEX_ANY_OP(-) ERRDEX_ANY_OP(*) ERRDEX_ANY_OP(/)
ERRDEX_ANY_OP(%) ERRDEX_ANY_OP(&) ERRDEX_ANY_OP(|)
#undef ERRDEX_ANY_OP
// Tensors as kernels' host code uses them (PyTorch's and tvm-ffi's).
#define ERRDEX_M(n) template <class... A> __errdex_any n(A&&...) const;
struct __errdex_tensor {
  ERRDEX_M(dim) ERRDEX_M(size) ERRDEX_M(sizes) ERRDEX_M(numel) ERRDEX_M(is_cuda) ERRDEX_M(is_cpu)
  ERRDEX_M(is_contiguous) ERRDEX_M(dtype) ERRDEX_M(scalar_type) ERRDEX_M(device) ERRDEX_M(stride) ERRDEX_M(strides)
  ERRDEX_M(data_ptr) ERRDEX_M(ndim) ERRDEX_M(IsContiguous) ERRDEX_M(options) ERRDEX_M(defined) ERRDEX_M(has_value)
  ERRDEX_M(value) ERRDEX_M(shape) ERRDEX_M(element_size) ERRDEX_M(get_device) ERRDEX_M(item) ERRDEX_M(to)
  ERRDEX_M(size_bytes) ERRDEX_M(nbytes) ERRDEX_M(is_meta) ERRDEX_M(layout) ERRDEX_M(type) ERRDEX_M(contiguous)
};
#undef ERRDEX_M
typedef struct __errdex_half half; typedef struct __errdex_half __half; typedef struct __errdex_bf16 __nv_bfloat16;
struct __errdex_stream { template <class T> __errdex_stream& operator<<(const T&); };
namespace std {
struct string {
  string(); string(const char*); string(const char*, size_t); string(const string&);
  const char* c_str() const; const char* data() const; bool empty() const; size_t size() const;
  string& operator+=(const string&); string& operator+=(const char*); string& operator+=(char);
  string& append(const string&);
};
string operator+(const string&, const string&); string operator+(const string&, const char*);
string operator+(const char*, const string&); string operator+(const string&, char);
struct string_view { string_view(const char*); string_view(const string&); };
template <class T> string to_string(T);
struct exception { exception(); virtual const char* what() const noexcept; };
#define ERRDEX_STD_ERROR(N) struct N : exception { N(const char*); N(const string&); };
ERRDEX_STD_ERROR(runtime_error) ERRDEX_STD_ERROR(logic_error) ERRDEX_STD_ERROR(invalid_argument)
ERRDEX_STD_ERROR(out_of_range) ERRDEX_STD_ERROR(length_error) ERRDEX_STD_ERROR(domain_error)
ERRDEX_STD_ERROR(range_error) ERRDEX_STD_ERROR(overflow_error) ERRDEX_STD_ERROR(underflow_error)
#undef ERRDEX_STD_ERROR
struct ostream { template <class T> ostream& operator<<(const T&); };
struct ostringstream : ostream { ostringstream(); ostringstream(const string&); template <class T> ostringstream& operator<<(const T&); string str() const; void str(const string&); };
struct stringstream : ostringstream { stringstream(); stringstream(const string&); };
extern ostream cerr; extern ostream cout;
ostream& endl(ostream&);
template <class T> T&& move(T&);
template <class T> T&& forward(T&);
template <class... T> struct tuple; template <class T, class... A> struct vector; template <class T> struct optional;
template <class K, class V, class... A> struct map; template <class K, class V, class... A> struct unordered_map;
template <class T> struct shared_ptr; template <class T, class... D> struct unique_ptr;
template <class... A> string format(A&&...);
void abort(); void exit(int);
}  // namespace std
namespace c10 { struct Half; struct BFloat16; enum class ScalarType; struct Device; struct IValue;
  template <class T> struct ArrayRef; using IntArrayRef = ArrayRef<int64_t>; template <class T> using optional = std::optional<T>;
  template <class... A> std::string str(A&&...); }
namespace at { using Tensor = __errdex_tensor; struct TensorOptions; struct Generator; using c10::ScalarType; using c10::Device;
  using c10::IntArrayRef; using c10::optional; using c10::str; }
namespace torch { using namespace at; }
template <class... A> std::string fmtstr(A&&...);  // TensorRT-LLM's printf-style formatter
// flashinfer's ostringstream helper, and the error type of the generated corpus'
// (gen_cpp_corpus.py) flashinfer-style MY_ERROR: a repository declares them in a header
// outside any #define, which the oracle does not copy. Undeclared, they made clang report
// an error in every function using MY_CHECK or MY_ERROR, and the oracle was blind there.
template <class... A> void write_to_stream(A&&...);
namespace my { struct Error { template <class... A> Error(A&&...); }; }
namespace fmt { template <class... A> std::string format(A&&...); template <class... A> std::string sprintf(A&&...); }
namespace absl { template <class... A> std::string StrCat(A&&...); template <class... A> std::string StrFormat(A&&...);
  struct Status;
#define ERRDEX_ABSL(N) template <class... A> Status N##Error(A&&...);
  ERRDEX_ABSL(Aborted) ERRDEX_ABSL(AlreadyExists) ERRDEX_ABSL(Cancelled) ERRDEX_ABSL(DataLoss) ERRDEX_ABSL(DeadlineExceeded)
  ERRDEX_ABSL(FailedPrecondition) ERRDEX_ABSL(Internal) ERRDEX_ABSL(InvalidArgument) ERRDEX_ABSL(NotFound)
  ERRDEX_ABSL(OutOfRange) ERRDEX_ABSL(PermissionDenied) ERRDEX_ABSL(ResourceExhausted) ERRDEX_ABSL(Unauthenticated)
  ERRDEX_ABSL(Unavailable) ERRDEX_ABSL(Unimplemented) ERRDEX_ABSL(Unknown)
#undef ERRDEX_ABSL
}
namespace spdlog { template <class... A> void error(A&&...); template <class... A> void warn(A&&...);
  template <class... A> void critical(A&&...); template <class... A> void info(A&&...); }
namespace tvm { namespace ffi { using Tensor = __errdex_tensor; using TensorView = __errdex_tensor;
  template <class T> struct Optional : __errdex_tensor {}; struct Function; } }
using TensorView = __errdex_tensor;
typedef struct CUstream_st* cudaStream_t; typedef struct CUevent_st* cudaEvent_t;
// An enum, as the runtime's: `cudaError_t e = f(); if (e != cudaSuccess)` compares one
// enum type (with an int typedef, __errdex_any's operators made `!=` ambiguous).
enum cudaError_t { cudaSuccess = 0, cudaErrorInvalidValue = 1, cudaErrorMemoryAllocation = 2 };
enum { CUDA_SUCCESS = 0, CUBLAS_STATUS_SUCCESS = 0, ncclSuccess = 0, CUTLASS_STATUS_SUCCESS = 0 };
typedef int CUresult; typedef int cublasStatus_t; typedef int ncclResult_t; typedef int cudnnStatus_t;
typedef struct cublasContext* cublasHandle_t; typedef struct cublasLtContext* cublasLtHandle_t;
struct dim3 { dim3(unsigned = 1, unsigned = 1, unsigned = 1); unsigned x, y, z; };
const char* cudaGetErrorString(cudaError_t); const char* cudaGetErrorName(cudaError_t);
cudaError_t cudaGetLastError(); cudaError_t cudaDeviceSynchronize();
cudaError_t cudaMemsetAsync(void*, int, size_t, cudaStream_t = 0); cudaError_t cudaMemset(void*, int, size_t);
cudaError_t cudaMemcpyAsync(void*, const void*, size_t, int, cudaStream_t = 0);
cudaError_t cudaMalloc(void**, size_t); cudaError_t cudaFree(void*); cudaError_t cudaStreamSynchronize(cudaStream_t);
typedef struct _object PyObject;
enum DLDeviceType { kDLCPU = 1, kDLCUDA = 2, kDLCUDAHost = 3, kDLOpenCL = 4, kDLVulkan = 7, kDLMetal = 8, kDLROCM = 10,
                    kDLCUDAManaged = 13, kDLOneAPI = 14 };
enum DLDataTypeCode { kDLInt = 0, kDLUInt = 1, kDLFloat = 2, kDLBfloat = 4, kDLComplex = 5, kDLBool = 6 };
struct DLDataType { uint8_t code; uint8_t bits; uint16_t lanes; };
struct DLDevice { DLDeviceType device_type; int32_t device_id; };
// glog severities and tvm-ffi error kinds, as the identifiers the sinks take.
enum __errdex_severity { INFO, WARNING, WARN, ERROR, FATAL, DFATAL, QFATAL };
extern int ValueError, TypeError, IndexError, KeyError, AttributeError, RuntimeError, InternalError,
    NotImplementedError, IOError, OSError, MemoryError, OverflowError, ZeroDivisionError, AssertionError;
#endif
extern PyObject *PyExc_Exception, *PyExc_ValueError, *PyExc_TypeError, *PyExc_RuntimeError, *PyExc_IndexError,
    *PyExc_KeyError, *PyExc_AttributeError, *PyExc_NotImplementedError, *PyExc_OverflowError, *PyExc_MemoryError,
    *PyExc_OSError, *PyExc_IOError, *PyExc_SystemError, *PyExc_StopIteration, *PyExc_ImportError,
    *PyExc_ZeroDivisionError, *PyExc_AssertionError, *PyExc_BufferError, *PyExc_UnicodeError, *PyExc_LookupError,
    *PyExc_ArithmeticError, *PyExc_DeprecationWarning, *PyExc_RuntimeWarning, *PyExc_UserWarning, *PyExc_FutureWarning,
    *PyExc_TimeoutError, *PyExc_FileNotFoundError, *PyExc_PermissionError, *PyExc_UnicodeDecodeError;
