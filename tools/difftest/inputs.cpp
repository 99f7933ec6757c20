// Deterministic inputs and the binary files of a differential test (inputs.h).
#include "difftest/inputs.h"

#include <fmt/format.h>

#include <fstream>
#include <sstream>

#include "ir/interp/numerics.h"

namespace tilec::difftest {

Header parse_header(const std::string& text) {
  Header h;
  std::istringstream lines(text);
  std::string line;
  const std::string tag = "# difftest:";
  while (std::getline(lines, line)) {
    if (line.compare(0, tag.size(), tag) != 0) continue;
    std::istringstream words(line.substr(tag.size()));
    std::string w;
    while (words >> w) {
      size_t eq = w.find('=');
      if (eq == std::string::npos) continue;
      std::string key = w.substr(0, eq), value = w.substr(eq + 1);
      if (key == "skip") h.skip = value;
      else h.values[key] = std::stoll(value);
    }
    break;
  }
  return h;
}

uint64_t Rng::next() {
  // splitmix64 (Steele, Lea, Flood 2014): the same sequence everywhere.
  uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

namespace {

Scalar random_value(DType t, Rng& rng) {
  if (is_bool(t)) return Scalar{rng.range(0, 1), 0};
  if (is_unsigned_int(t)) return Scalar{rng.range(0, 8), 0};
  if (is_signed_int(t)) return Scalar{rng.range(-4, 4), 0};
  if (is_restricted(t)) return Scalar{0, interp::round_to(double(rng.range(-8, 8)) / 4, t)};
  return Scalar{0, double(rng.range(-32, 32)) / 8};
}

}  // namespace

void array_access(const ir::Function& f, size_t param, bool& read, bool& written) {
  read = written = false;
  const auto* array = f.sig.params[param].array;
  ir::walk(const_cast<ir::Block&>(f.body), [&](ir::Op& op) {
    if (op.operands.empty() || !op.operands[0]->type.is_array || op.operands[0]->type.array != array) return;
    switch (op.kind) {
      case ir::OpKind::Load:
      case ir::OpKind::Gather: read = true; break;
      case ir::OpKind::Store:
      case ir::OpKind::Scatter: written = true; break;
      case ir::OpKind::Atomic: read = written = true; break;
      default: read = true; break;  // anything else that takes the array: count it as a read
    }
  });
}

std::vector<interp::Arg> make_args(const ir::Function& f, const Header& h, Rng& rng) {
  std::vector<int64_t> dims;
  for (const ir::DimSymbol& d : f.sig.dims) {
    auto it = h.values.find(d.name);
    dims.push_back(it != h.values.end() ? it->second : rng.range(1, 48));
  }
  std::vector<interp::Arg> args(f.sig.params.size());
  for (size_t i = 0; i < f.sig.params.size(); ++i) {
    const ir::Param& p = f.sig.params[i];
    interp::Arg& a = args[i];
    if (!p.is_array) {
      auto it = h.values.find(p.name);
      if (is_float(p.dtype))  // --set gives a float scalar an integer value (attention's sm_scale=1)
        a.scalar = it != h.values.end() ? Scalar{0, interp::round_to(double(it->second), p.dtype)}
                                        : random_value(p.dtype, rng);
      else a.scalar.i = interp::wrap(it != h.values.end() ? it->second : rng.range(0, 4), p.dtype);
      continue;
    }
    a.array.dtype = p.array->dtype;
    int64_t n = 1;
    for (const ArrayDim& d : p.array->dims) {
      int64_t e = d.symbol.empty() ? d.constant : dims[size_t(f.sig.dim_index(d.symbol))];
      a.array.extents.push_back(e);
      n *= e;
    }
    bool read = false, written = false;
    array_access(f, i, read, written);
    bool poison = written && !read && !is_bool(a.array.dtype);
    for (int64_t k = 0; k < n; ++k)
      a.array.data.push_back(poison ? interp::from_bits(~uint64_t(0), a.array.dtype) : random_value(a.array.dtype, rng));
  }
  return args;
}

bool write_arrays(const std::string& dir, const ir::Function& f, const std::vector<interp::Arg>& args,
                  const std::vector<int64_t>& grid, const std::string& what, std::string& error,
                  const std::string& extra) {
  std::string json = fmt::format("{{\"kernel\": \"{}\", \"grid\": [{}],{}\n \"dims\": [", f.name, fmt::join(grid, ", "),
                                 extra.empty() ? "" : " " + extra + ",");
  for (size_t d = 0; d < f.sig.dims.size(); ++d) {
    // The extent of a dimension symbol: from the first array that has it.
    int64_t value = -1;
    for (size_t i = 0; i < f.sig.params.size() && value < 0; ++i) {
      const ir::Param& p = f.sig.params[i];
      if (!p.is_array) continue;
      for (size_t k = 0; k < p.array->dims.size(); ++k)
        if (p.array->dims[k].symbol == f.sig.dims[d].name) value = args[i].array.extents[k];
    }
    json += fmt::format("{}{{\"name\": \"{}\", \"value\": {}}}", d ? ", " : "", f.sig.dims[d].name, value);
  }
  json += "],\n \"params\": [";
  for (size_t i = 0; i < f.sig.params.size(); ++i) {
    const ir::Param& p = f.sig.params[i];
    json += i ? ",\n  " : "\n  ";
    if (!p.is_array) {
      const Scalar& s = args[i].scalar;
      std::string v = is_float(p.dtype) ? fmt::format("{}", s.f)
                      : is_unsigned_int(p.dtype) ? fmt::format("{}", uint64_t(s.i)) : fmt::format("{}", s.i);
      json += fmt::format("{{\"name\": \"{}\", \"dtype\": \"{}\", \"value\": {}}}", p.name, dtype_name(p.dtype), v);
      continue;
    }
    const interp::HostArray& a = args[i].array;
    std::string path = fmt::format("{}/{}.{}.{}.bin", dir, f.name, what, p.name);
    bool read = false, written = false;
    array_access(f, i, read, written);
    json += fmt::format("{{\"name\": \"{}\", \"dtype\": \"{}\", \"extents\": [{}], \"file\": \"{}.{}.{}.bin\", "
                        "\"read\": {}, \"written\": {}}}",
                        p.name, dtype_name(a.dtype), fmt::join(a.extents, ", "), f.name, "in", p.name, read, written);
    std::string bytes;
    int size = dtype_bytes(a.dtype);
    for (const Scalar& s : a.data) {
      uint64_t b = interp::to_bits(s, a.dtype);
      for (int k = 0; k < size; ++k) bytes += char((b >> (8 * k)) & 0xff);
    }
    std::ofstream out(path, std::ios::binary);
    if (!out.write(bytes.data(), std::streamsize(bytes.size()))) {
      error = "cannot write '" + path + "'";
      return false;
    }
  }
  json += "\n]}\n";
  if (what != "in") return true;
  std::string path = fmt::format("{}/{}.json", dir, f.name);
  std::ofstream out(path);
  if (!(out << json)) {
    error = "cannot write '" + path + "'";
    return false;
  }
  return true;
}

bool read_arrays(const std::string& dir, const ir::Function& f, std::vector<interp::Arg>& args, std::string& error) {
  for (size_t i = 0; i < f.sig.params.size(); ++i) {
    bool read = false, written = false;
    if (!f.sig.params[i].is_array) continue;
    array_access(f, i, read, written);
    std::string path = fmt::format("{}/{}.in.{}.bin", dir, f.name, f.sig.params[i].name);
    std::ifstream in(path, std::ios::binary);
    if (!read || !in) continue;
    interp::HostArray& a = args[i].array;
    size_t size = size_t(dtype_bytes(a.dtype));
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (bytes.size() != a.data.size() * size) {
      error = fmt::format("'{}' holds {} bytes; the array has {} elements of {} bytes", path, bytes.size(),
                          a.data.size(), size);
      return false;
    }
    for (size_t e = 0; e < a.data.size(); ++e) {
      uint64_t b = 0;
      for (size_t k = 0; k < size; ++k) b |= uint64_t(uint8_t(bytes[e * size + k])) << (8 * k);
      a.data[e] = interp::from_bits(b, a.dtype);
    }
  }
  return true;
}

}  // namespace tilec::difftest
