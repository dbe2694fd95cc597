//===- OnnxModelReader.cpp - ONNX protobuf to the plain OnnxModel ---------===//
//
// The only importer TU that includes ONNX/protobuf headers (they need exceptions, see
// CMakeLists.txt). It validates what it reads — dims, data sizes against raw_data, attribute kinds,
// external data paths — so that the rest of the importer can trust the model.
//
//===----------------------------------------------------------------------===//

#include "OnnxImporterInternal.h"

#include "mlir/IR/Location.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SwapByteOrder.h"

#include "onnx/onnx_pb.h"
#include <google/protobuf/io/coded_stream.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <exception>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace mlir;
using namespace mlir::mie::onnx_import;

namespace {

/// Bytes per element as stored in raw_data (bool: one byte), or 0 for types the importer rejects.
size_t byteWidth(int64_t dataType) {
  switch (static_cast<OnnxDataType>(dataType)) {
  case OnnxDataType::Bool:
  case OnnxDataType::Int8:
  case OnnxDataType::UInt8:
  case OnnxDataType::Float8E4M3FN:
  case OnnxDataType::Float8E4M3FNUZ:
  case OnnxDataType::Float8E5M2:
  case OnnxDataType::Float8E5M2FNUZ:
  case OnnxDataType::Float8E8M0:
  // Packed in the file, one byte each once read (packedBits).
  case OnnxDataType::Int4:
  case OnnxDataType::UInt4:
  case OnnxDataType::Float4E2M1:
  case OnnxDataType::Int2:
  case OnnxDataType::UInt2:
    return 1;
  case OnnxDataType::Int16:
  case OnnxDataType::UInt16:
  case OnnxDataType::Float16:
  case OnnxDataType::BFloat16:
    return 2;
  case OnnxDataType::Int32:
  case OnnxDataType::UInt32:
  case OnnxDataType::Float:
    return 4;
  case OnnxDataType::Int64:
  case OnnxDataType::UInt64:
  case OnnxDataType::Double:
    return 8;
  default:
    return 0;
  }
}

/// A file opened for reading, checked to be a regular file; closed when it goes.
class RegularFile {
public:
  RegularFile() = default;
  RegularFile(const RegularFile &) = delete;
  RegularFile &operator=(const RegularFile &) = delete;
  ~RegularFile() {
    if (fd >= 0)
      ::close(fd);
  }

  /// Opens `path` (its last component not a symlink when `noFollow`). A FIFO, device, socket or
  /// directory is refused without reading from it: opened non-blocking, so a FIFO without a writer
  /// cannot hang the compile, and never read, so /dev/zero cannot feed it without end. On failure
  /// `error` says why in a few words.
  LogicalResult open(StringRef path, bool noFollow, std::string &error) {
    std::string zpath = path.str();
    fd = ::open(zpath.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | (noFollow ? O_NOFOLLOW : 0));
    if (fd < 0) {
      error = std::strerror(errno);
      return failure();
    }
    struct stat st;
    if (::fstat(fd, &st) != 0) {
      error = std::strerror(errno);
      return failure();
    }
    if (!S_ISREG(st.st_mode)) {
      error = S_ISFIFO(st.st_mode)   ? "it is a FIFO, not a regular file"
              : S_ISDIR(st.st_mode)  ? "it is a directory, not a regular file"
              : S_ISCHR(st.st_mode)  ? "it is a character device, not a regular file"
              : S_ISBLK(st.st_mode)  ? "it is a block device, not a regular file"
              : S_ISSOCK(st.st_mode) ? "it is a socket, not a regular file"
                                     : "it is not a regular file";
      return failure();
    }
    size = static_cast<uint64_t>(st.st_size);
    return success();
  }

  /// Reads `out.size()` bytes at `offset` (within the size checked by the caller).
  LogicalResult read(uint64_t offset, MutableArrayRef<char> out, std::string &error) {
    size_t done = 0;
    while (done < out.size()) {
      ssize_t n = ::pread(fd, out.data() + done, out.size() - done, offset + done);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0) {
        error = n < 0 ? std::strerror(errno) : "the file became shorter while it was read";
        return failure();
      }
      done += static_cast<size_t>(n);
    }
    return success();
  }

  int fd = -1;
  uint64_t size = 0;
};

/// The double whose shortest decimal form is the float's: attributes are stored as float32, and
/// `epsilon = 1e-3` should print as 1.0e-03, not 0.0010000000474974513.
double widenFloat(float value) { return shortestDecimal(value); }

std::string normalizeDomain(const std::string &domain) {
  return domain == "ai.onnx" ? std::string() : domain;
}

class ModelReader {
public:
  ModelReader(MLIRContext &ctx, StringRef path, const mie::OnnxImportOptions &opts,
              OnnxModel &model, uint64_t fileBytes)
      : ctx(ctx), fileLoc(FileLineColLoc::get(&ctx, path, 0, 0)), opts(opts), model(model),
        modelDir(llvm::sys::path::parent_path(path).str()), modelBytes(fileBytes) {}

  LogicalResult read(const ::onnx::ModelProto &proto);

private:
  Location nodeLoc(StringRef name) { return NameLoc::get(StringAttr::get(&ctx, name), fileLoc); }

  /// Converts a TensorProto; `what` names it in messages ("initializer 'w'").
  FailureOr<OnnxTensor> readTensor(const ::onnx::TensorProto &tensor, Location loc,
                                   const std::string &what, const std::string &nameHint);
  LogicalResult readTypedData(const ::onnx::TensorProto &tensor, Location loc,
                              const std::string &what, int64_t numElements,
                              MutableArrayRef<char> out);
  /// Where an external tensor's bytes are: its file, opened and checked (inside the model's
  /// directory once symlinks are resolved, a regular file, holding `bytes` bytes at the offset).
  struct ExternalData {
    std::unique_ptr<RegularFile> file;
    uint64_t offset = 0;
  };
  FailureOr<ExternalData> openExternalData(const ::onnx::TensorProto &tensor, Location loc,
                                           const std::string &what, RankedTensorType type,
                                           uint64_t bytes);
  LogicalResult readGraphValue(const ::onnx::ValueInfoProto &info, StringRef kind,
                               OnnxGraphValue &value, bool requireType);
  /// Reads the initializers, inputs and outputs of the main graph or a subgraph (`where`: "" or
  /// "subgraph 'P': "). Models of IR version < 4 list initializers among the inputs too: they
  /// are constants here. Subgraph inputs often leave their types to the node that runs them.
  template <typename Graph>
  LogicalResult readGraphValues(const ::onnx::GraphProto &proto, Graph &graph,
                                const std::string &where, bool typedInputs);
  /// Reads a node into `nodes`; an unnamed node of a subgraph is named after its index there,
  /// prefixed with the subgraph's path (`prefix`, "" for the main graph).
  LogicalResult readNode(const ::onnx::NodeProto &proto, size_t index, std::vector<OnnxNode> &nodes,
                         const std::string &namePrefix, unsigned depth);
  /// Reads a GRAPH attribute (If's branches, Loop's and Scan's bodies), nested `depth` deep.
  LogicalResult readSubgraph(const ::onnx::GraphProto &proto, OnnxGraph &graph,
                             const std::string &prefix, unsigned depth);

  MLIRContext &ctx;
  Location fileLoc;
  const mie::OnnxImportOptions &opts;
  OnnxModel &model;
  std::string modelDir;
  uint64_t modelBytes; // the model file and the external data read so far (maxModelBytes)
};

} // namespace

FailureOr<OnnxTensor> ModelReader::readTensor(const ::onnx::TensorProto &tensor, Location loc,
                                              const std::string &what,
                                              const std::string &nameHint) {
  if (tensor.has_segment())
    return emitError(loc) << what << " is segmented, which is not supported";
  int64_t dataType = tensor.data_type();
  Type elementType = elementTypeFor(&ctx, dataType);
  size_t width = byteWidth(dataType);
  if (!elementType || width == 0)
    return emitError(loc) << what << " has unsupported element type " << dataTypeName(dataType);
  // Every size here comes from the file and is checked against the limits before anything of
  // that size is allocated: a few bytes that declare 2^39 elements are an error naming the
  // tensor, not an out-of-memory abort. The product stops growing at the limit, so it cannot
  // overflow.
  SmallVector<int64_t> shape;
  uint64_t bytes = width;
  bool tooLarge = false;
  for (int64_t dim : tensor.dims()) {
    if (dim < 0)
      return emitError(loc) << what << " has a negative dim (" << dim << ")";
    shape.push_back(dim);
    if (dim == 0)
      bytes = 0;
    else if (!tooLarge && bytes > opts.maxTensorBytes / static_cast<uint64_t>(dim))
      tooLarge = true;
    else if (!tooLarge)
      bytes *= static_cast<uint64_t>(dim);
  }
  if (tooLarge && bytes != 0)
    return emitError(loc) << what << " of shape " << listToString(shape) << " declares more than "
                          << formatByteLimit(opts.maxTensorBytes)
                          << ", the most one tensor may have (--max-tensor-bytes)";
  // An empty tensor may still declare absurd dims, which would overflow element counts later.
  if (!isReasonableShape(shape))
    return emitError(loc) << what << " of shape " << listToString(shape) << " is too large";
  int64_t numElements = static_cast<int64_t>(bytes / width);

  OnnxTensor result;
  result.name = nameHint;
  result.type = RankedTensorType::get(shape, elementType);
  // The data in the file must cover the dims before anything is allocated. 4-bit and 2-bit
  // elements are packed there, `perByte` to a byte.
  const unsigned bits = packedBits(dataType);
  const uint64_t perByte = bits ? 8 / bits : 1;
  const uint64_t fileBytes = (bytes + perByte - 1) / perByte;
  const bool external = tensor.data_location() == ::onnx::TensorProto::EXTERNAL;
  if (!external && tensor.has_raw_data() && tensor.raw_data().size() != fileBytes)
    return emitError(loc) << what << " has " << tensor.raw_data().size()
                          << " bytes of raw_data, but " << result.type << " needs " << fileBytes;
  if (bits) {
    // Packed data: read the file's bytes (raw_data, int32_data holding one byte each, or
    // external data), then spread them one element per byte.
    std::string packed;
    if (external) {
      FailureOr<ExternalData> opened = openExternalData(tensor, loc, what, result.type, fileBytes);
      if (failed(opened))
        return failure();
      if (fileBytes > opts.maxModelBytes - std::min(modelBytes, opts.maxModelBytes))
        return emitError(loc) << what << ": its " << fileBytes << " bytes of external data bring "
                              << "the model past " << formatByteLimit(opts.maxModelBytes)
                              << ", the most one model may have (--max-model-bytes)";
      modelBytes += fileBytes;
      packed.resize(fileBytes);
      std::string error;
      if (fileBytes && failed(opened->file->read(
                           opened->offset, MutableArrayRef<char>(packed.data(), fileBytes), error)))
        return emitError(loc) << what << ": cannot read its external data: " << error;
    } else if (tensor.has_raw_data()) {
      packed = tensor.raw_data();
    } else {
      if ((uint64_t)tensor.int32_data_size() != fileBytes)
        return emitError(loc) << what << " has " << tensor.int32_data_size()
                              << " values in int32_data, but its " << numElements << " " << bits
                              << "-bit elements need " << fileBytes << " (packed)";
      for (int32_t v : tensor.int32_data())
        packed.push_back(static_cast<char>(v & 0xFF));
    }
    result.blob = HeapAsmResourceBlob::allocate(bytes, /*align=*/64, /*dataIsMutable=*/true);
    MutableArrayRef<char> out = result.blob.getMutableData();
    const unsigned mask = (1u << bits) - 1;
    for (int64_t i = 0; i < numElements; ++i) {
      unsigned byte = static_cast<unsigned char>(packed[i / perByte]);
      out[i] = static_cast<char>((byte >> (bits * (i % perByte))) & mask);
    }
    if (shouldTrackAsKnown(result.type))
      result.known = knownFromBytes(result.type, result.blob.getData());
    return result;
  }
  int64_t typedValues = int64_t(tensor.float_data_size()) + tensor.double_data_size() +
                        tensor.int64_data_size() + tensor.int32_data_size() +
                        tensor.uint64_data_size() + tensor.string_data_size();
  if (!external && !tensor.has_raw_data() && typedValues < numElements)
    return emitError(loc) << what << " holds " << typedValues << " values, but " << result.type
                          << " needs " << numElements;
  ExternalData data;
  if (external) {
    FailureOr<ExternalData> opened = openExternalData(tensor, loc, what, result.type, bytes);
    if (failed(opened))
      return failure();
    data = std::move(*opened);
    // Inline data came with the model file, counted already; external data adds to the model.
    if (bytes > opts.maxModelBytes - std::min(modelBytes, opts.maxModelBytes))
      return emitError(loc) << what << ": its " << bytes << " bytes of external data bring the "
                            << "model past " << formatByteLimit(opts.maxModelBytes)
                            << ", the most one model may have (--max-model-bytes)";
    modelBytes += bytes;
  }
  result.blob = HeapAsmResourceBlob::allocate(bytes, /*align=*/64, /*dataIsMutable=*/true);
  MutableArrayRef<char> out = result.blob.getMutableData();

  if (external) {
    std::string error;
    if (bytes && failed(data.file->read(data.offset, out, error)))
      return emitError(loc) << what << ": cannot read its external data: " << error;
  } else if (tensor.has_raw_data()) {
    if (bytes)
      std::memcpy(out.data(), tensor.raw_data().data(), bytes);
  } else if (failed(readTypedData(tensor, loc, what, numElements, out))) {
    return failure();
  }
  if (shouldTrackAsKnown(result.type))
    result.known = knownFromBytes(result.type, result.blob.getData());
  return result;
}

LogicalResult ModelReader::readTypedData(const ::onnx::TensorProto &tensor, Location loc,
                                         const std::string &what, int64_t numElements,
                                         MutableArrayRef<char> out) {
  auto checkCount = [&](int count, StringRef field) -> LogicalResult {
    if (count == numElements)
      return success();
    if (count == 0 && numElements != 0)
      return emitError(loc) << what << " has no data (neither raw_data nor " << field << ")";
    return emitError(loc) << what << " has " << count << " values in " << field << ", but its "
                          << numElements << " elements need as many";
  };
  char *dst = out.data();
  switch (static_cast<OnnxDataType>(tensor.data_type())) {
  case OnnxDataType::Float:
    if (failed(checkCount(tensor.float_data_size(), "float_data")))
      return failure();
    if (numElements)
      std::memcpy(dst, tensor.float_data().data(), numElements * sizeof(float));
    return success();
  case OnnxDataType::Double:
    if (failed(checkCount(tensor.double_data_size(), "double_data")))
      return failure();
    if (numElements)
      std::memcpy(dst, tensor.double_data().data(), numElements * sizeof(double));
    return success();
  case OnnxDataType::Int64:
    if (failed(checkCount(tensor.int64_data_size(), "int64_data")))
      return failure();
    if (numElements)
      std::memcpy(dst, tensor.int64_data().data(), numElements * sizeof(int64_t));
    return success();
  case OnnxDataType::UInt32:
  case OnnxDataType::UInt64: {
    // Both live in uint64_data; UINT32 keeps the low 4 bytes (little-endian host).
    if (failed(checkCount(tensor.uint64_data_size(), "uint64_data")))
      return failure();
    size_t width = byteWidth(tensor.data_type());
    for (int64_t i = 0; i < numElements; ++i) {
      uint64_t v = tensor.uint64_data(i);
      std::memcpy(dst + i * width, &v, width);
    }
    return success();
  }
  default:
    break;
  }
  // Every other supported type (int32 and narrower, uint16, bool, f16/bf16 bit patterns) is in
  // int32_data.
  if (failed(checkCount(tensor.int32_data_size(), "int32_data")))
    return failure();
  size_t width = byteWidth(tensor.data_type());
  for (int64_t i = 0; i < numElements; ++i) {
    int32_t v = tensor.int32_data(i);
    if (tensor.data_type() == ::onnx::TensorProto::BOOL)
      v = v != 0;
    // Little-endian host (checked in readOnnxModel): the low `width` bytes are the value.
    std::memcpy(dst + i * width, &v, width);
  }
  return success();
}

FailureOr<ModelReader::ExternalData>
ModelReader::openExternalData(const ::onnx::TensorProto &tensor, Location loc,
                              const std::string &what, RankedTensorType type, uint64_t bytes) {
  std::string location;
  int64_t offset = 0, length = -1;
  for (const ::onnx::StringStringEntryProto &entry : tensor.external_data()) {
    const std::string &value = entry.value();
    if (entry.key() == "location") {
      location = value;
    } else if (entry.key() == "offset" || entry.key() == "length") {
      int64_t parsed;
      if (StringRef(value).getAsInteger(10, parsed) || parsed < 0)
        return emitError(loc) << what << " has an invalid external data " << entry.key() << " '"
                              << value << "'";
      (entry.key() == "offset" ? offset : length) = parsed;
    }
  }
  if (location.empty())
    return emitError(loc) << what << " has external data without a location";
  // Like onnx.checker: the data file must lie next to (or below) the model. Checked on the name
  // first, then on the file it resolves to, so that no symlink leads outside either.
  if (llvm::sys::path::is_absolute(location) ||
      llvm::any_of(
          llvm::make_range(llvm::sys::path::begin(location), llvm::sys::path::end(location)),
          [](StringRef part) { return part == ".."; }))
    return emitError(loc) << what << " has external data location '" << location
                          << "' outside the model's directory";
  SmallString<256> file(modelDir);
  llvm::sys::path::append(file, location);
  SmallString<256> realDir, realFile;
  if (std::error_code ec = llvm::sys::fs::real_path(
          modelDir.empty() ? StringRef(".") : StringRef(modelDir), realDir))
    return emitError(loc) << what << ": cannot resolve the model's directory: " << ec.message();
  if (std::error_code ec = llvm::sys::fs::real_path(file, realFile))
    return emitError(loc) << what << ": cannot read external data file '" << file
                          << "': " << ec.message();
  StringRef inside = realFile.str();
  if (!inside.consume_front(realDir) || inside.empty() ||
      !llvm::sys::path::is_separator(inside.front()))
    return emitError(loc) << what << " has external data location '" << location
                          << "', which resolves to '" << realFile
                          << "', outside the model's directory";
  ExternalData data;
  data.file = std::make_unique<RegularFile>();
  std::string error;
  // The resolved path, its last component not followed: a symlink swapped in after the check is
  // refused rather than followed outside.
  if (failed(data.file->open(realFile, /*noFollow=*/true, error)))
    return emitError(loc) << what << ": cannot read external data file '" << file << "': " << error;
  uint64_t size = data.file->size;
  if (static_cast<uint64_t>(offset) > size)
    return emitError(loc) << what << ": external data offset " << offset << " is past the end of '"
                          << file << "' (" << size << " bytes)";
  uint64_t available = size - static_cast<uint64_t>(offset);
  uint64_t used = length < 0 ? available : static_cast<uint64_t>(length);
  if (used > available)
    return emitError(loc) << what << ": external data of " << length << " bytes at offset "
                          << offset << " reaches past the end of '" << file << "' (" << size
                          << " bytes)";
  if (used != bytes)
    return emitError(loc) << what << " has " << used << " bytes of external data, but " << type
                          << " needs " << bytes;
  data.offset = static_cast<uint64_t>(offset);
  return data;
}

/// The dims of a declared shape; the first negative dim_value in `negative` (std::nullopt when
/// none).
static std::vector<OnnxDim> readDims(const ::onnx::TensorShapeProto &shape,
                                     std::optional<int64_t> &negative) {
  std::vector<OnnxDim> dims;
  for (const ::onnx::TensorShapeProto::Dimension &dim : shape.dim()) {
    OnnxDim d;
    if (dim.has_dim_value()) {
      if (dim.dim_value() < 0 && !negative)
        negative = dim.dim_value();
      d.size = dim.dim_value();
    } else if (dim.has_dim_param()) {
      d.param = dim.dim_param();
    }
    dims.push_back(std::move(d));
  }
  return dims;
}

LogicalResult ModelReader::readGraphValue(const ::onnx::ValueInfoProto &info, StringRef kind,
                                          OnnxGraphValue &value, bool requireType) {
  value.name = info.name();
  if (value.name.empty())
    return emitError(fileLoc) << "graph " << kind << " without a name";
  if (!info.has_type()) {
    if (requireType)
      return emitError(fileLoc) << "graph " << kind << " '" << value.name << "' has no type";
    return success();
  }
  if (!info.type().has_tensor_type())
    return emitError(fileLoc) << "graph " << kind << " '" << value.name
                              << "' is not a tensor (sequence, map and optional values are not "
                                 "supported)";
  const ::onnx::TypeProto::Tensor &tensorType = info.type().tensor_type();
  value.dataType = tensorType.elem_type();
  if (!tensorType.has_shape())
    return success();
  std::optional<int64_t> negative;
  value.dims = readDims(tensorType.shape(), negative);
  if (negative)
    return emitError(fileLoc) << "graph " << kind << " '" << value.name << "' has a negative dim ("
                              << *negative << ")";
  return success();
}

template <typename Graph>
LogicalResult ModelReader::readGraphValues(const ::onnx::GraphProto &proto, Graph &graph,
                                           const std::string &where, bool typedInputs) {
  if (proto.sparse_initializer_size())
    return emitError(fileLoc) << where << "sparse initializers are not supported";
  llvm::StringSet<> initializerNames;
  for (const ::onnx::TensorProto &tensor : proto.initializer()) {
    const std::string &name = tensor.name();
    if (name.empty())
      return emitError(fileLoc) << where << "initializer without a name";
    if (!initializerNames.insert(name).second)
      return emitError(fileLoc) << where << "initializer '" << name << "' is defined twice";
    FailureOr<OnnxTensor> read =
        readTensor(tensor, NameLoc::get(StringAttr::get(&ctx, name), fileLoc),
                   "initializer '" + name + "'", name);
    if (failed(read))
      return failure();
    graph.initializers.push_back(std::move(*read));
  }
  for (const ::onnx::ValueInfoProto &info : proto.input()) {
    OnnxGraphValue value;
    if (initializerNames.contains(info.name()))
      continue;
    if (failed(readGraphValue(info, "input", value, typedInputs)))
      return failure();
    graph.inputs.push_back(std::move(value));
  }
  for (const ::onnx::ValueInfoProto &info : proto.output()) {
    OnnxGraphValue value;
    if (failed(readGraphValue(info, "output", value, /*requireType=*/false)))
      return failure();
    graph.outputs.push_back(std::move(value));
  }
  return success();
}

LogicalResult ModelReader::readSubgraph(const ::onnx::GraphProto &proto, OnnxGraph &graph,
                                        const std::string &prefix, unsigned depth) {
  graph.name = proto.name();
  if (failed(readGraphValues(proto, graph, "subgraph '" + prefix + "': ", /*typedInputs=*/false)))
    return failure();
  for (int i = 0, e = proto.node_size(); i < e; ++i)
    if (failed(readNode(proto.node(i), i, graph.nodes, prefix, depth)))
      return failure();
  return success();
}

LogicalResult ModelReader::readNode(const ::onnx::NodeProto &proto, size_t index,
                                    std::vector<OnnxNode> &nodes, const std::string &namePrefix,
                                    unsigned depth) {
  OnnxNode node;
  node.opType = proto.op_type();
  node.domain = normalizeDomain(proto.domain());
  node.index = index;
  node.name =
      proto.name().empty() ? namePrefix + node.opType + "_" + std::to_string(index) : proto.name();
  if (node.opType.empty())
    return emitError(nodeLoc(node.name)) << "node '" << node.name << "' has no op_type";
  if (node.domain.empty() && !model.importsDefaultDomain)
    return emitError(nodeLoc(node.name))
           << node.opType << " node '" << node.name
           << "' is in the default ONNX domain, which the model does not import (no "
              "opset_import entry for domain '')";
  node.inputs.assign(proto.input().begin(), proto.input().end());
  node.outputs.assign(proto.output().begin(), proto.output().end());
  Location loc = nodeLoc(node.name);
  std::string prefix = node.opType + " node '" + node.name + "': ";

  for (const ::onnx::AttributeProto &attr : proto.attribute()) {
    if (attr.name().empty())
      return emitError(loc) << prefix << "attribute without a name";
    if (!attr.ref_attr_name().empty())
      return emitError(loc) << prefix << "attribute '" << attr.name()
                            << "' refers to a function attribute, which is not supported";
    OnnxAttribute value;
    ::onnx::AttributeProto::AttributeType type = attr.type();
    // Very old models leave `type` unset: infer it from the field that holds a value.
    if (type == ::onnx::AttributeProto::UNDEFINED) {
      if (attr.has_f())
        type = ::onnx::AttributeProto::FLOAT;
      else if (attr.has_i())
        type = ::onnx::AttributeProto::INT;
      else if (attr.has_s())
        type = ::onnx::AttributeProto::STRING;
      else if (attr.has_t())
        type = ::onnx::AttributeProto::TENSOR;
      else if (attr.floats_size())
        type = ::onnx::AttributeProto::FLOATS;
      else if (attr.ints_size())
        type = ::onnx::AttributeProto::INTS;
      else if (attr.strings_size())
        type = ::onnx::AttributeProto::STRINGS;
    }
    value.typeName = ::onnx::AttributeProto::AttributeType_Name(type);
    switch (type) {
    case ::onnx::AttributeProto::FLOAT:
      value.kind = OnnxAttribute::Kind::Float;
      value.f = widenFloat(attr.f());
      break;
    case ::onnx::AttributeProto::INT:
      value.kind = OnnxAttribute::Kind::Int;
      value.i = attr.i();
      break;
    case ::onnx::AttributeProto::STRING:
      value.kind = OnnxAttribute::Kind::String;
      value.s = attr.s();
      break;
    case ::onnx::AttributeProto::FLOATS:
      value.kind = OnnxAttribute::Kind::Floats;
      for (float f : attr.floats())
        value.floats.push_back(widenFloat(f));
      break;
    case ::onnx::AttributeProto::INTS:
      value.kind = OnnxAttribute::Kind::Ints;
      value.ints.assign(attr.ints().begin(), attr.ints().end());
      break;
    case ::onnx::AttributeProto::STRINGS:
      value.kind = OnnxAttribute::Kind::Strings;
      value.strings.assign(attr.strings().begin(), attr.strings().end());
      break;
    case ::onnx::AttributeProto::TENSOR: {
      value.kind = OnnxAttribute::Kind::Tensor;
      // A Constant's value is named after the value it defines, the best blob-name hint there is.
      std::string hint =
          !node.outputs.empty() && !node.outputs[0].empty() ? node.outputs[0] : node.name;
      FailureOr<OnnxTensor> tensor =
          readTensor(attr.t(), loc, prefix + "attribute '" + attr.name() + "'", hint);
      if (failed(tensor))
        return failure();
      if (!tensor->known && shouldTrackAsKnown(tensor->type, /*constantNode=*/true))
        tensor->known = knownFromBytes(tensor->type, tensor->blob.getData());
      value.tensor = std::make_shared<OnnxTensor>(std::move(*tensor));
      break;
    }
    case ::onnx::AttributeProto::GRAPH: {
      // Nesting is bounded so that a hostile model cannot exhaust the stack of the importer,
      // which recurses once per level.
      constexpr unsigned kMaxSubgraphDepth = 16;
      if (depth >= kMaxSubgraphDepth)
        return emitError(loc) << prefix << "attribute '" << attr.name()
                              << "': subgraphs are nested more than " << kMaxSubgraphDepth
                              << " deep";
      value.kind = OnnxAttribute::Kind::Graph;
      value.graph = std::make_shared<OnnxGraph>();
      if (failed(
              readSubgraph(attr.g(), *value.graph, node.name + "/" + attr.name() + "/", depth + 1)))
        return failure();
      break;
    }
    default:
      value.kind = OnnxAttribute::Kind::Other;
      break;
    }
    node.attributes.insert_or_assign(attr.name(), std::move(value));
  }
  nodes.push_back(std::move(node));
  return success();
}

LogicalResult ModelReader::read(const ::onnx::ModelProto &proto) {
  for (const ::onnx::OperatorSetIdProto &opset : proto.opset_import())
    model.opsets[normalizeDomain(opset.domain())] = opset.version();
  auto it = model.opsets.find("");
  if (it == model.opsets.end()) {
    // Legal where every node is in another domain; a node of the default domain is refused below.
    if (model.opsets.empty())
      return emitError(fileLoc) << "model imports no opset (no opset_import entry)";
    model.importsDefaultDomain = false;
    model.opset = kMaxOpset;
  } else {
    model.opset = it->second;
  }
  if (model.opset < kMinOpset)
    return emitError(fileLoc) << "model opset " << model.opset
                              << " is not supported (the importer supports opsets " << kMinOpset
                              << " to " << kMaxOpset << ")";
  if (model.opset > kMaxOpset)
    emitWarning(fileLoc) << "model opset " << model.opset << " is newer than the newest opset the "
                         << "importer knows (" << kMaxOpset << "); importing with opset "
                         << kMaxOpset << " semantics";

  const ::onnx::GraphProto &graph = proto.graph();
  model.graphName = graph.name();
  if (failed(readGraphValues(graph, model, "", /*typedInputs=*/true)))
    return failure();
  if (model.outputs.empty())
    return emitError(fileLoc) << "graph has no outputs";
  // Shape inference's annotations of inner values, for the few ops whose result shape the inputs do
  // not determine (ImageDecoder). They are hints, not semantics: an entry that is not a tensor with
  // a well-formed shape is skipped rather than failing a model that never needs it.
  for (const ::onnx::ValueInfoProto &info : graph.value_info()) {
    if (info.name().empty() || !info.type().has_tensor_type() ||
        !info.type().tensor_type().has_shape())
      continue;
    OnnxGraphValue value;
    value.name = info.name();
    value.dataType = info.type().tensor_type().elem_type();
    std::optional<int64_t> negative;
    value.dims = readDims(info.type().tensor_type().shape(), negative);
    if (!negative)
      model.valueInfo.push_back(std::move(value));
  }

  for (int i = 0, e = graph.node_size(); i < e; ++i)
    if (failed(readNode(graph.node(i), i, model.nodes, "", 0)))
      return failure();
  return success();
}

LogicalResult mlir::mie::onnx_import::readOnnxModel(StringRef path, MLIRContext &ctx,
                                                    const mie::OnnxImportOptions &opts,
                                                    OnnxModel &model) {
  Location fileLoc = FileLineColLoc::get(&ctx, path, 0, 0);
  if (!llvm::sys::IsLittleEndianHost)
    return emitError(fileLoc) << "the ONNX importer needs a little-endian host";
  // Checked as a regular file of bounded size before any byte is read (a FIFO would block, a
  // device would be read without end).
  RegularFile file;
  std::string error;
  if (failed(file.open(path, /*noFollow=*/false, error)))
    return emitError(fileLoc) << "cannot read ONNX model '" << path << "': " << error;
  uint64_t size = file.size;
  if (size > opts.maxModelBytes)
    return emitError(fileLoc) << "ONNX model '" << path << "' has " << size << " bytes, more than "
                              << formatByteLimit(opts.maxModelBytes)
                              << ", the most one model may have (--max-model-bytes)";
  if (size > static_cast<uint64_t>(INT_MAX))
    return emitError(fileLoc) << "ONNX model '" << path
                              << "' is larger than 2 GiB; store its weights as external data";
  if (size == 0)
    return emitError(fileLoc) << "'" << path << "' is not an ONNX model: the file is empty";
  auto buffer = llvm::MemoryBuffer::getOpenFile(file.fd, path, size,
                                                /*RequiresNullTerminator=*/false);
  if (!buffer)
    return emitError(fileLoc) << "cannot read ONNX model '" << path
                              << "': " << buffer.getError().message();

  model.path = path.str();
  try {
    ::onnx::ModelProto proto;
    google::protobuf::io::CodedInputStream stream(
        reinterpret_cast<const uint8_t *>((*buffer)->getBufferStart()), static_cast<int>(size));
    stream.SetTotalBytesLimit(INT_MAX);
    if (!proto.ParseFromCodedStream(&stream) || !stream.ConsumedEntireMessage())
      return emitError(fileLoc) << "'" << path
                                << "' is not an ONNX model: protobuf parsing failed (truncated "
                                   "or corrupt file?)";
    if (!proto.has_graph())
      return emitError(fileLoc) << "'" << path << "' is not an ONNX model: it has no graph";
    buffer->reset(); // The proto holds its own copy now.
    ModelReader reader(ctx, path, opts, model, size);
    return reader.read(proto);
  } catch (const std::exception &e) {
    return emitError(fileLoc) << "cannot read ONNX model '" << path << "': " << e.what();
  }
}
