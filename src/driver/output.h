// Writing outputs atomically (temporary file + rename) and Make depfiles.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "driver/options.h"

namespace tilec {

/// Writes `data` to `path` through a temporary file in the same folder, renamed into place
/// only when complete; `path` "-" writes stdout. On failure nothing is left behind and `error`
/// says why. Temporary files are also removed when the process gets SIGINT/SIGTERM/SIGHUP.
bool write_file_atomic(const std::string& path, const std::string& data, std::string& error);

/// Writes several files as one step: every temporary file is written first, then each is
/// renamed into place in order, so a failure while writing (a full disk) leaves none of them
/// changed. On failure `failed` names the file and `error` says why. "-" writes stdout, last.
bool write_files_atomic(const std::vector<std::pair<std::string, std::string>>& files, std::string& failed,
                        std::string& error);

/// Make depfile text: `target: dep1 dep2`, with spaces, '#' and '$' escaped the way GNU Make
/// and Ninja read them; with `phony`, one empty rule per dependency after the first, the main
/// file (`-MP`, as gcc's).
std::string make_depfile(const std::string& target, const std::vector<std::string>& deps, bool phony);

/// The error when one of `files` (path, text) would replace one of `sources` (the input and the
/// modules it imports, as the checker lists them), else "". Compared as files (links, `./`),
/// not as strings; standard input and output are no files.
std::string replaced_source(const std::vector<std::pair<std::string, std::string>>& files,
                            const std::vector<std::string>& sources);

/// Why writing `emit` to `output` deserves -Woutput-extension, or "": the extension names
/// another output kind (--emit=ptx -o k.h), or, when `emit_given` is false, none (-o k.txt then
/// gets a header). Standard output and devices (-o /dev/null) are not named files.
std::string output_extension_problem(const std::string& output, EmitKind emit, bool emit_given);

/// Installs the signal handlers that remove temporary outputs; safe to call more than once.
void install_cleanup_handlers();

}  // namespace tilec
