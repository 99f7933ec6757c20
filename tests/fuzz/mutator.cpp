// The structure-aware half of the fuzz target: mutations that keep a .tile source looking like
// source (whole lines, indentation, literals, names, operators), so more inputs get past the
// parser into the checker, the IR passes and the code generator. libFuzzer's own byte-level
// mutations (with the dictionary) do the other half; see LLVMFuzzerCustomMutator below.
#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <string_view>
#include <vector>

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

namespace {

const char* const kNumbers[] = {"0", "1", "2", "3", "4", "7", "8", "16", "31", "32", "33", "63", "64", "65",
                                "127", "128", "255", "256", "512", "1000", "1024", "4096", "65535", "65536",
                                "1048576", "2147483647", "2147483648", "4294967295", "4294967296",
                                "9223372036854775807", "18446744073709551615", "-1", "-2", "0.0", "-0.0", "0.5",
                                "1e30", "1e-30", "3.4e38", "1e308", "0x7f", "0b1", "0o7", "1_0"};
const char* const kDtypes[] = {"bool", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f16", "bf16",
                               "f32", "f64", "tf32", "f8e4m3", "f8e5m2"};
const char* const kOperators[] = {"+", "-", "*", "/", "//", "%", "**", "@", "&", "|", "^", "<<", ">>", "<",
                                  ">", "<=", ">=", "==", "!=", " and ", " or ", ", ", ":", "."};
const char* const kNames[] = {"load", "store", "zeros", "ones", "full", "arange", "sum", "max", "min", "argmax",
                              "cumsum", "reshape", "permute", "transpose", "expand_dims", "broadcast_to", "where",
                              "astype", "bitcast", "exp", "mma", "cdiv", "bid", "num_blocks", "range", "cat",
                              "extract", "gather", "scatter", "atomic_add", "print", "static_assert", "T", "None"};

template <size_t N>
const char* pick(const char* const (&table)[N], std::mt19937& rng) {
  return table[rng() % N];
}

std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    lines.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

std::string join_lines(const std::vector<std::string>& lines) {
  std::string out;
  for (size_t i = 0; i < lines.size(); ++i) out += (i ? "\n" : "") + lines[i];
  return out;
}

bool is_word(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'; }

// [begin, end) of every maximal run of word characters that starts with `first`.
std::vector<std::pair<size_t, size_t>> tokens(const std::string& s, bool (*first)(char)) {
  std::vector<std::pair<size_t, size_t>> out;
  for (size_t i = 0; i < s.size();) {
    if (!is_word(s[i])) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < s.size() && is_word(s[j])) ++j;
    if (first(s[i])) out.push_back({i, j});
    i = j;
  }
  return out;
}

bool digit(char c) { return c >= '0' && c <= '9'; }
bool letter(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }

// One source-level mutation of `text`; false when it did not apply.
bool mutate_source(std::string& text, std::mt19937& rng) {
  std::vector<std::string> lines = split_lines(text);
  size_t a = rng() % lines.size(), b = rng() % lines.size();
  switch (rng() % 8) {
    case 0: {  // a number becomes an interesting value
      auto t = tokens(text, digit);
      if (t.empty()) return false;
      auto [i, j] = t[rng() % t.size()];
      text.replace(i, j - i, pick(kNumbers, rng));
      return true;
    }
    case 1:
    case 2: {  // a name becomes a dtype, a built-in, or another name of the same input
      auto t = tokens(text, letter);
      if (t.empty()) return false;
      auto [i, j] = t[rng() % t.size()];
      std::string repl;
      switch (rng() % 3) {
        case 0: repl = pick(kDtypes, rng); break;
        case 1: repl = pick(kNames, rng); break;
        default: {
          auto [k, l] = t[rng() % t.size()];
          repl = text.substr(k, l - k);
        }
      }
      text.replace(i, j - i, repl);
      return true;
    }
    case 3: {  // an operator or punctuation mark becomes another
      std::vector<size_t> at;
      for (size_t i = 0; i < text.size(); ++i)
        if (std::strchr("+-*/%@&|^<>=,:", text[i]) && text[i] != 0) at.push_back(i);
      if (at.empty()) return false;
      text.replace(at[rng() % at.size()], 1, pick(kOperators, rng));
      return true;
    }
    case 4:  // a line repeated (a statement twice, a deeper loop body)
      lines.insert(lines.begin() + a, lines[b]);
      break;
    case 5:  // a line dropped
      if (lines.size() < 2) return false;
      lines.erase(lines.begin() + a);
      break;
    case 6:  // two lines swapped
      if (a == b) return false;
      std::swap(lines[a], lines[b]);
      break;
    case 7:  // a line indented or dedented by one level
      if (rng() % 2) lines[a] = "    " + lines[a];
      else if (lines[a].rfind("    ", 0) == 0) lines[a].erase(0, 4);
      else return false;
      break;
  }
  text = join_lines(lines);
  return true;
}

}  // namespace

/// Half the time a source-level mutation (mutate_source), else libFuzzer's byte-level one.
extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size, unsigned int seed) {
  std::mt19937 rng(seed);
  if (size > 0 && rng() % 2) {
    std::string text(reinterpret_cast<const char*>(data), size);
    for (unsigned n = 1 + rng() % 3; n > 0; --n) mutate_source(text, rng);
    if (text.size() <= max_size && !text.empty()) {
      std::memcpy(data, text.data(), text.size());
      return text.size();
    }
  }
  return LLVMFuzzerMutate(data, size, max_size);
}

/// Crossover by whole lines: the first part of one input, the rest of another.
extern "C" size_t LLVMFuzzerCustomCrossOver(const uint8_t* data1, size_t size1, const uint8_t* data2, size_t size2,
                                            uint8_t* out, size_t max_out_size, unsigned int seed) {
  std::mt19937 rng(seed);
  std::vector<std::string> one = split_lines({reinterpret_cast<const char*>(data1), size1});
  std::vector<std::string> two = split_lines({reinterpret_cast<const char*>(data2), size2});
  std::vector<std::string> lines(one.begin(), one.begin() + long(rng() % (one.size() + 1)));
  lines.insert(lines.end(), two.begin() + long(rng() % (two.size() + 1)), two.end());
  std::string text = join_lines(lines);
  size_t n = std::min(text.size(), max_out_size);
  std::memcpy(out, text.data(), n);
  return n;
}
