#include "native/common/file_io.hpp"

#include <errno.h>
#include <fcntl.h>
#include <sodium.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

namespace enygma::native {

namespace {
Error io_error(const std::string& what, const std::string& path) {
  return make_error(what + " " + path + ": " + strerror(errno), "io", path);
}

// A file opened for reading, and its size (the caller closes fd): a regular file, or where
// streams are allowed also a pipe or a character device (`<(cmd)`, /dev/stdin), size unknown.
struct OpenFile {
  int fd;
  size_t size;
  bool stream = false;
};
Result<OpenFile> open_input_file(const std::string& path, bool streams_allowed = false) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return io_error("cannot open", path);
  struct stat st;
  if (fstat(fd, &st) != 0) {
    Error e = io_error("cannot stat", path);
    close(fd);
    return e;
  }
  if (streams_allowed && (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode))) {
    return OpenFile{fd, 0, true};
  }
  if (!S_ISREG(st.st_mode)) {
    close(fd);
    return make_error(
        path + (streams_allowed ? " is not a file or a pipe" : " is not a regular file"), "io",
        path);
  }
  return OpenFile{fd, size_t(st.st_size)};
}
}  // namespace

Error naming_file(const Error& e, const std::string& path) {
  return make_error(path + ": " + e.message, e.rule, path);
}

Result<std::vector<uint8_t>> read_file(const std::string& path) {
  auto whole = read_file_head(path, SIZE_MAX);
  if (!whole) return whole.error();
  return std::move(whole->bytes);
}

Result<FileHead> read_file_head(const std::string& path, size_t n) {
  auto file = open_input_file(path);
  if (!file) return file.error();
  const int fd = file->fd;
  FileHead head;
  head.size = file->size;
  head.bytes.resize(std::min(n, file->size));
  size_t done = 0;
  while (done < head.bytes.size()) {
    ssize_t got = read(fd, head.bytes.data() + done, head.bytes.size() - done);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      // (an end before the size fstat gave sets no errno: a file that shrank while read, or a
      // file of /sys, whose size says 4096 whatever it holds)
      Error e = got < 0 ? io_error("cannot read", path)
                        : make_error("cannot read " + path + ": it ends at byte " +
                                         std::to_string(done) + ", before the " +
                                         std::to_string(file->size) + " bytes its size says",
                                     "io", path);
      close(fd);
      return e;
    }
    done += size_t(got);
  }
  close(fd);
  return head;
}

MappedFile::~MappedFile() {
  if (mapped_) munmap(const_cast<uint8_t*>(data_), size_);
}

MappedFile::MappedFile(MappedFile&& o) noexcept
    : data_(o.data_), size_(o.size_), mapped_(o.mapped_) {
  o.data_ = nullptr;
  o.size_ = 0;
  o.mapped_ = false;
}

MappedFile& MappedFile::operator=(MappedFile&& o) noexcept {
  if (this != &o) {
    if (mapped_) munmap(const_cast<uint8_t*>(data_), size_);
    data_ = o.data_;
    size_ = o.size_;
    mapped_ = o.mapped_;
    o.data_ = nullptr;
    o.size_ = 0;
    o.mapped_ = false;
  }
  return *this;
}

Result<MappedFile> map_file(const std::string& path) {
  auto file = open_input_file(path);
  if (!file) return file.error();
  const int fd = file->fd;
  MappedFile out;
  if (file->size > 0) {
    void* p = mmap(nullptr, file->size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
    if (p == MAP_FAILED) {
      Error e = io_error("cannot map", path);
      close(fd);
      return e;
    }
    out.data_ = static_cast<const uint8_t*>(p);
    out.size_ = file->size;
    out.mapped_ = true;
  }
  close(fd);
  return out;
}

Result<SecureString> read_text_file(const std::string& path) {
  const bool from_stdin = path == "-";
  const std::string name = from_stdin ? std::string("standard input") : path;
  auto too_large = [&] {
    return make_error(name + " is larger than " + std::to_string(kMaxTextInputBytes >> 20) +
                          " MiB: not a request, proof or key text",
                      "io", path);
  };
  int fd = STDIN_FILENO;
  size_t expected = 64 * 1024;  // a first guess for a stream, which grows as it comes
  if (!from_stdin) {
    auto file = open_input_file(path, true);
    if (!file) return file.error();
    fd = file->fd;
    if (file->size > kMaxTextInputBytes) {
      close(fd);
      return too_large();
    }
    if (!file->stream) expected = file->size;
  }
  // Read into the string itself (one more byte than expected, to see the end); a larger buffer
  // takes the text over, and every buffer left is wiped (SecureString).
  SecureString out(expected + 1, '\0');
  size_t done = 0;
  for (;;) {
    if (done == out.size()) {
      if (out.size() > kMaxTextInputBytes) {
        if (!from_stdin) close(fd);
        return too_large();
      }
      SecureString larger(std::min(2 * out.size(), kMaxTextInputBytes + 1), '\0');
      std::memcpy(larger.data(), out.data(), done);
      out.swap(larger);
    }
    const ssize_t n = read(fd, out.data() + done, out.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      Error e = io_error("cannot read", name);
      if (!from_stdin) close(fd);
      return e;
    }
    if (n == 0) break;
    done += size_t(n);
  }
  if (!from_stdin) close(fd);
  out.resize(done);  // shrinks in place: the capacity, and any bytes past `done`, stay
  return out;
}

bool write_all(int fd, const void* data, size_t size) {
  const auto* p = static_cast<const uint8_t*>(data);
  size_t done = 0;
  while (done < size) {
    const ssize_t n = write(fd, p + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += size_t(n);
  }
  return true;
}

namespace {

// One output of write_output_files, between its checks and its rename.
struct PendingOutput {
  const OutputFile* file = nullptr;
  bool stream = false;  // "-", a pipe or a device: written to as it is
  int stream_fd = -1;   // a stream that is this process's standard output or error: that fd
  std::string target;   // a regular file: the file replaced (through a link, the file it names)
  std::string tmp;      // its temporary file beside it, once created
};

// The file an open descriptor is, if it is open.
bool same_file(const struct stat& st, int fd) {
  struct stat o;
  return fstat(fd, &o) == 0 && o.st_dev == st.st_dev && o.st_ino == st.st_ino;
}

// Where a symbolic link leads when what it names does not exist yet (a dangling link: the file
// it names is created, as a shell's `>` creates it), followed link by link (at most 40, as the
// kernel does); the path itself when it is no link.
std::string dangling_link_target(std::string path) {
  for (int hops = 0; hops < 40; ++hops) {
    struct stat st;
    if (lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return path;
    char buf[PATH_MAX];
    const ssize_t n = readlink(path.c_str(), buf, sizeof buf - 1);
    if (n <= 0) return path;
    std::string next(buf, size_t(n));
    if (next[0] != '/') {
      const size_t slash = path.rfind('/');
      if (slash != std::string::npos) next = path.substr(0, slash + 1) + next;
    }
    path = next;
  }
  return path;
}

// "-", a pipe or a device are streams, and so is a file that is this process's standard output
// or error (`--out /dev/stdout` with stdout sent to a file: written to where the shell put it,
// not replaced by a new file); a folder is refused; a regular file (or none yet) is replaced
// through a temporary file.
Result<PendingOutput> check_output(const OutputFile& file) {
  PendingOutput out;
  out.file = &file;
  const std::string& path = file.path;
  if (path.empty()) return make_error("no file name given", "io", path);
  if (path == "-") {
    out.stream = true;
    out.stream_fd = STDOUT_FILENO;
    return out;
  }
  out.target = path;
  struct stat st;
  const bool exists = stat(path.c_str(), &st) == 0;
  if (!exists && errno == ELOOP) {
    // links that lead back to themselves name no file (a shell's `>` refuses them too): refused,
    // not replaced by the output
    return io_error("cannot write", path);
  }
  if (exists) {
    if (S_ISDIR(st.st_mode)) return make_error(path + " is a folder", "io", path);
    for (int fd : {STDOUT_FILENO, STDERR_FILENO}) {
      if (same_file(st, fd)) {
        out.stream = true;
        out.stream_fd = fd;
        return out;
      }
    }
    if (!S_ISREG(st.st_mode)) {
      out.stream = true;
      return out;
    }
    if (char* resolved = realpath(path.c_str(), nullptr)) {
      out.target = resolved;
      free(resolved);
    }
  } else {
    out.target = dangling_link_target(path);
  }
  return out;
}

Status write_stream(const PendingOutput& out) {
  const OutputFile& file = *out.file;
  if (out.stream_fd >= 0) {
    const bool flushed = fflush(out.stream_fd == STDOUT_FILENO ? stdout : stderr) == 0;
    if (!flushed || !write_all(out.stream_fd, file.data, file.size)) {
      return io_error("cannot write",
                      file.path == "-" ? std::string("standard output") : file.path);
    }
    return ok_status();
  }
  const int fd = open(file.path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return io_error("cannot open", file.path);
  const bool written = write_all(fd, file.data, file.size);
  const int write_errno = errno;
  const bool closed = close(fd) == 0;
  if (!written) errno = write_errno;
  if (!written || !closed) return io_error("cannot write", file.path);
  return ok_status();
}

// The temporary files of the writes under way, removed by a signal that ends the process (Ctrl-C,
// SIGTERM, SIGHUP, SIGXFSZ: a file-size limit reached mid-write) before they are renamed: a
// witness's or a request's secrets are not left in a file the user does not know of. Paths in fixed
// buffers, read by the handler only up to g_tmp_count (set after the path is written).
constexpr int kMaxPendingTmp = 8;
char g_tmp_paths[kMaxPendingTmp][PATH_MAX];
volatile sig_atomic_t g_tmp_count = 0;
constexpr int kCleanupSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGXFSZ};
constexpr int kNumCleanupSignals = 4;
struct sigaction g_previous[kNumCleanupSignals];

extern "C" void remove_temporaries_and_die(int sig) {
  for (int i = 0; i < g_tmp_count; ++i) unlink(g_tmp_paths[i]);
  signal(sig, SIG_DFL);
  raise(sig);
}

// Installs the handler for the duration of a write (the previous handlers back afterwards: the
// server keeps its own), for the signals whose action is the default one (the process's end): a
// signal ignored (`nohup` ignores SIGHUP) or handled by the program stays so.
class TemporaryFileGuard {
 public:
  TemporaryFileGuard() {
    struct sigaction sa {};
    sa.sa_handler = remove_temporaries_and_die;
    sigemptyset(&sa.sa_mask);
    for (int s : kCleanupSignals) sigaddset(&sa.sa_mask, s);
    for (int i = 0; i < kNumCleanupSignals; ++i) {
      sigaction(kCleanupSignals[i], nullptr, &g_previous[i]);
      if (g_previous[i].sa_handler == SIG_DFL && !(g_previous[i].sa_flags & SA_SIGINFO)) {
        sigaction(kCleanupSignals[i], &sa, nullptr);
      }
    }
  }
  ~TemporaryFileGuard() {
    g_tmp_count = 0;
    for (int i = 0; i < kNumCleanupSignals; ++i)
      sigaction(kCleanupSignals[i], &g_previous[i], nullptr);
  }
  TemporaryFileGuard(const TemporaryFileGuard&) = delete;
  TemporaryFileGuard& operator=(const TemporaryFileGuard&) = delete;
  // (a path that cannot be registered, too long or one too many, is written all the same)
  static void add(const std::string& path) {
    if (g_tmp_count >= kMaxPendingTmp || path.size() >= PATH_MAX) return;
    memcpy(g_tmp_paths[g_tmp_count], path.c_str(), path.size() + 1);
    g_tmp_count = g_tmp_count + 1;
  }
};

// A name for the temporary file beside `target` that nobody can know in advance (a predictable
// name in a shared folder could be taken first: a file of another user's, or a link).
std::string temporary_name(const std::string& target, bool short_form) {
  uint8_t r[8];
  randombytes_buf(r, sizeof r);
  char hex[2 * sizeof r + 1];
  sodium_bin2hex(hex, sizeof hex, r, sizeof r);
  if (!short_form) return target + "." + hex + ".tmp";
  const size_t slash = target.rfind('/');
  return (slash == std::string::npos ? std::string() : target.substr(0, slash + 1)) + ".enygma." +
         hex + ".tmp";
}

// The whole file into out.tmp (created new, never an existing file or a link; removed again on
// failure), synced, with its mode.
Status write_temporary(PendingOutput& out) {
  const OutputFile& file = *out.file;
  const mode_t mode = file.access == FileAccess::kOwnerOnly ? 0600 : 0644;
  int fd = -1;
  std::string tmp;
  bool short_form = false;  // a name too long with the suffix: a short one in its folder
  for (int attempt = 0; attempt < 8 && fd < 0; ++attempt) {
    tmp = temporary_name(out.target, short_form);
    fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd >= 0 || errno == EEXIST) continue;
    if (errno != ENAMETOOLONG || short_form) break;
    short_form = true;
  }
  if (fd < 0) return io_error("cannot create a temporary file for", file.path);
  TemporaryFileGuard::add(tmp);
  out.tmp = tmp;
  // The mode asked for whatever the umask, set before a byte is written.
  const bool moded = fchmod(fd, mode) == 0;
  const bool written = moded && write_all(fd, file.data, file.size);
  const int write_errno = errno;
  const bool synced = written && fsync(fd) == 0;
  const int sync_errno = errno;
  const bool closed = close(fd) == 0;
  if (!written || !synced || !closed) {
    errno = !written ? write_errno : !synced ? sync_errno : errno;
    return io_error("cannot write", file.path);
  }
  return ok_status();
}

// The rename made durable: the folder synced.
void sync_folder_of(const std::string& target) {
  const size_t slash = target.rfind('/');
  const std::string dir = slash == std::string::npos ? std::string(".")
                          : slash == 0               ? std::string("/")
                                                     : target.substr(0, slash);
  int dfd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    fsync(dfd);
    close(dfd);
  }
}

}  // namespace

Status write_output_files(std::span<const OutputFile> files) {
  TemporaryFileGuard guard;
  std::vector<PendingOutput> pending;
  for (const OutputFile& file : files) {
    auto checked = check_output(file);
    if (!checked) return checked.error();
    pending.push_back(std::move(*checked));
  }
  auto discard = [&] {
    for (PendingOutput& out : pending) {
      if (!out.tmp.empty()) unlink(out.tmp.c_str());
    }
  };
  for (PendingOutput& out : pending) {
    if (out.stream) continue;
    if (Status st = write_temporary(out); !st) {
      discard();
      return st;
    }
  }
  for (PendingOutput& out : pending) {
    if (!out.stream) continue;
    if (Status st = write_stream(out); !st) {
      discard();
      return st;
    }
  }
  for (PendingOutput& out : pending) {
    if (out.stream) continue;
    if (rename(out.tmp.c_str(), out.target.c_str()) != 0) {
      Error e = io_error("cannot write", out.file->path);
      discard();  // the temporary files not renamed yet
      return e;
    }
    out.tmp.clear();
    sync_folder_of(out.target);
  }
  return ok_status();
}

Status write_output_file(const std::string& path, const void* data, size_t size,
                         FileAccess access) {
  const OutputFile file{path, data, size, access};
  return write_output_files({&file, 1});
}

Status check_output_place(const std::string& path) {
  const OutputFile file{path, nullptr, 0};
  auto out = check_output(file);
  if (!out) return out.error();
  if (out->stream) return ok_status();
  // (absolute: "a.json" is in "."; which fails where the working folder was removed)
  std::error_code ec;
  const std::filesystem::path folder = std::filesystem::absolute(out->target, ec).parent_path();
  if (ec) {
    errno = ec.value();
    return io_error("cannot write", path);
  }
  if (struct stat st; stat(folder.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    return make_error("cannot write " + path + ": " + folder.string() + " is not a folder", "io",
                      path);
  }
  return ok_status();
}

Status check_output_folder_place(const std::string& dir) {
  std::string place = dir;
  for (;;) {
    // ("a/b/" is "a/b": with the slash, a file b would be ENOTDIR, taken for a missing folder)
    while (place.size() > 1 && place.back() == '/') place.pop_back();
    const char* what =
        place == dir || place + "/" == dir ? "cannot use as a folder" : "cannot create a folder in";
    if (struct stat st; stat(place.c_str(), &st) == 0) {
      if (S_ISDIR(st.st_mode)) return ok_status();
      errno = ENOTDIR;
      return io_error(what, place);
    } else if (errno != ENOENT && errno != ENOTDIR) {
      return io_error(what, place);
    }
    // Not there: its parent must be a folder (made as mkdir -p makes it). A parent that is a
    // file made stat say ENOTDIR: it is named when reached.
    const size_t slash = place.find_last_of('/');
    if (slash == std::string::npos) return ok_status();  // in the working folder
    place = slash == 0 ? "/" : place.substr(0, slash);
  }
}

bool same_output_place(const std::string& a, const std::string& b) {
  if (a == b) return true;
  auto identity = [](const std::string& path, struct stat& st) {
    return path == "-" ? fstat(STDOUT_FILENO, &st) == 0 : stat(path.c_str(), &st) == 0;
  };
  struct stat sa, sb;
  if (identity(a, sa) && identity(b, sb)) return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  if (a == "-" || b == "-") return false;
  // (absolute first: weakly_canonical leaves a relative path that does not exist yet as it is,
  // so that a.json and ./a.json would differ; a link to a file not there yet taken to where it
  // leads, where the output will be written)
  std::error_code ea, eb;
  const auto place = [](const std::string& path, std::error_code& ec) {
    const auto absolute = std::filesystem::absolute(dangling_link_target(path), ec);
    return ec ? absolute : std::filesystem::weakly_canonical(absolute, ec);
  };
  const auto ca = place(a, ea), cb = place(b, eb);
  return !ea && !eb && ca == cb;
}

Status make_directories(const std::string& path) {
  std::string cur;
  for (size_t i = 0; i <= path.size(); ++i) {
    if (i == path.size() || path[i] == '/') {
      if (!cur.empty() && mkdir(cur.c_str(), 0755) != 0 && errno != EEXIST) {
        return io_error("cannot create folder", cur);
      }
    }
    if (i < path.size()) cur.push_back(path[i]);
  }
  // an existing file of that name (EEXIST above) is no folder: said now, before the work whose
  // files would go there
  if (struct stat st; !path.empty()) {
    if (stat(path.c_str(), &st) != 0) return io_error("cannot create folder", path);
    if (!S_ISDIR(st.st_mode)) {
      errno = ENOTDIR;
      return io_error("cannot use as a folder", path);
    }
  }
  return ok_status();
}

std::string proving_key_path(const std::string& dir, const CircuitId& circuit) {
  return dir + "/" + circuit.str() + ".pk";
}
std::string verifying_key_path(const std::string& dir, const CircuitId& circuit) {
  return dir + "/" + circuit.str() + ".vk";
}

}  // namespace enygma::native
