// File access for the native tools (core/ does none): whole-file reads with clear errors and
// atomic writes (temporary file, fsync, rename, fsync of the folder), so an interrupted write
// never leaves a half file under the final name.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/registry/registry.hpp"
#include "core/util/result.hpp"
#include "core/util/secure_vector.hpp"

namespace enygma::native {

// An error about a file's contents (a key, a zkey) that names the file: "<path>: <message>", the
// rule kept, the field the path.
Error naming_file(const Error& e, const std::string& path);

Result<std::vector<uint8_t>> read_file(const std::string& path);
// The first n bytes of a regular file (all of it if shorter) and the file's size: a format's
// header checked before the file is read or mapped whole (a large file named by mistake is
// then refused at once, not read into memory first).
struct FileHead {
  std::vector<uint8_t> bytes;
  size_t size = 0;
};
Result<FileHead> read_file_head(const std::string& path, size_t n);

// A whole file mapped read-only (MAP_PRIVATE, pages faulted in up front): its bytes without the
// zeroed buffer and the copy of read_file (a proving key is ~10 MB). Unmapped on destruction.
class MappedFile {
 public:
  MappedFile() = default;
  ~MappedFile();
  MappedFile(MappedFile&& o) noexcept;
  MappedFile& operator=(MappedFile&& o) noexcept;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  std::span<const uint8_t> bytes() const { return {data_, size_}; }

 private:
  friend Result<MappedFile> map_file(const std::string& path);
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
  bool mapped_ = false;  // false: an empty file (nothing to unmap)
};
Result<MappedFile> map_file(const std::string& path);
// The largest text input read: a request, a proof or a verifying key as JSON (a k = 16 withdraw
// request is about 14 KB); anything larger is not one of them.
inline constexpr size_t kMaxTextInputBytes = size_t(16) << 20;
// A text input read whole: the file at `path` (a regular file, a pipe or a character device), or
// standard input when `path` is "-". Refused, naming the path, when larger than
// kMaxTextInputBytes (a regular file before it is read). The text may
// hold a request's secrets: no copy of it is left behind, and the result wipes itself when freed.
Result<SecureString> read_text_file(const std::string& path);
// Who may read a file written: everyone (keys, proofs, exports), or its owner alone (a
// witness, a request: they hold secret keys), whatever the umask or a replaced file's mode.
enum class FileAccess { kPublic, kOwnerOnly };
// An output of write_output_files: the bytes (not owned) and who may read them.
struct OutputFile {
  std::string path;
  const void* data;
  size_t size;
  FileAccess access = FileAccess::kPublic;
};
// Outputs that belong together (a proving key and its verifying key; a proof.json and its
// public.json), each as write_output_file writes it, and every file written whole to its
// temporary file before any is renamed: a failure (a folder in the way, a full disk) leaves every
// name as it was, never one new file beside an old one. Pipes, devices and "-" are written to
// after the temporary files, before the renames.
Status write_output_files(std::span<const OutputFile> files);
// An output file (--out): written whole to a temporary file beside it, synced, then renamed
// over it, so that no reader ever sees half of it; through a symbolic link the file it names is
// replaced (or created, for a link to a file not there yet; links that loop are refused, not
// replaced); a pipe or a device (/dev/null, a
// named pipe) is written to as it is; "-" is standard output, and so is a path to the file
// standard output (or error) is sent to (/dev/stdout with `> file`). The temporary file has a
// random name and is made new (never an existing file or a link) with its mode; a signal that
// ends the program mid-write (SIGINT, SIGTERM, SIGHUP, SIGXFSZ) removes it. Errors (rule "io")
// name `path`.
Status write_output_file(const std::string& path, const void* data, size_t size,
                         FileAccess access = FileAccess::kPublic);
inline Status write_output_file(const std::string& path, const std::vector<uint8_t>& bytes,
                                FileAccess access = FileAccess::kPublic) {
  return write_output_file(path, bytes.data(), bytes.size(), access);
}
inline Status write_output_file(const std::string& path, const std::string& text,
                                FileAccess access = FileAccess::kPublic) {
  return write_output_file(path, text.data(), text.size(), access);
}
// Whether an output (--out) can be written there, checked before the work that makes it (a
// proof): what write_output_file would refuse at once, a folder, or a file in a folder that
// does not exist. Errors (rule "io") name `path`.
Status check_output_place(const std::string& path);
// Whether a folder of outputs (import-zkey's --out DIR) can be used or made there, checked
// before the work that fills it: DIR, or else the nearest of its parents that exists, must be a
// folder. Errors (rule "io") name the path that is not.
Status check_output_folder_place(const std::string& dir);
// Whether two output paths (--out) lead to the same place: the same file where both exist ("-"
// is this process's standard output, which /dev/stdout, /dev/fd/1 or the file it is sent to
// also are), otherwise the same path once made absolute and canonical.
bool same_output_place(const std::string& a, const std::string& b);

// All of data to fd, retried after EINTR and short writes; false (errno set, or 0 for a write
// that took nothing) on failure.
bool write_all(int fd, const void* data, size_t size);
// mkdir -p
Status make_directories(const std::string& path);

// Where `enygma setup` puts and the other commands look for the key files of a circuit:
// DIR/<circuit>.pk and .vk, e.g. keys/dev/transfer-k6.pk, keys/dev/ownership-721.vk.
std::string proving_key_path(const std::string& dir, const CircuitId& circuit);
std::string verifying_key_path(const std::string& dir, const CircuitId& circuit);

}  // namespace enygma::native
