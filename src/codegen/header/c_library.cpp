// Names of the C standard library and of POSIX that a generated header must not define or
// shadow: a kernel's launch function has a weak alias under its plain name at file scope, so a
// kernel named `exp` would replace libm's exp in the whole program (docs/header.md "Names").
#include <set>
#include <string>

#include "codegen/header/c_text.h"

namespace tilec {
namespace {

// ISO C17 Annex B (the library summary): functions with external linkage, by header, math.h's
// and complex.h's float/long double forms added below. Plus the POSIX functions a C or C++
// program commonly links (unistd.h, fcntl.h, strings.h, dlfcn.h, pthread.h's most used, and
// math.h's Bessel functions j0..yn, which glibc declares by default).
const char* const kLibraryFunctions[] = {
    // assert.h, ctype.h, errno.h, fenv.h
    "isalnum", "isalpha", "isblank", "iscntrl", "isdigit", "isgraph", "islower", "isprint", "ispunct",
    "isspace", "isupper", "isxdigit", "tolower", "toupper", "feclearexcept", "fegetexceptflag",
    "feraiseexcept", "fesetexceptflag", "fetestexcept", "fegetround", "fesetround", "fegetenv",
    "feholdexcept", "fesetenv", "feupdateenv",
    // inttypes.h, locale.h, setjmp.h, signal.h
    "imaxabs", "imaxdiv", "strtoimax", "strtoumax", "wcstoimax", "wcstoumax", "setlocale",
    "localeconv", "longjmp", "signal", "raise",
    // stdio.h
    "remove", "rename", "tmpfile", "tmpnam", "fclose", "fflush", "fopen", "freopen", "setbuf",
    "setvbuf", "fprintf", "fscanf", "printf", "scanf", "snprintf", "sprintf", "sscanf", "vfprintf",
    "vfscanf", "vprintf", "vscanf", "vsnprintf", "vsprintf", "vsscanf", "fgetc", "fgets", "fputc",
    "fputs", "getc", "getchar", "putc", "putchar", "puts", "ungetc", "fread", "fwrite", "fgetpos",
    "fseek", "fsetpos", "ftell", "rewind", "clearerr", "feof", "ferror", "perror",
    // stdlib.h
    "atof", "atoi", "atol", "atoll", "strtod", "strtof", "strtold", "strtol", "strtoll", "strtoul",
    "strtoull", "rand", "srand", "aligned_alloc", "calloc", "free", "malloc", "realloc", "abort",
    "atexit", "at_quick_exit", "exit", "_Exit", "getenv", "quick_exit", "system", "bsearch", "qsort",
    "abs", "labs", "llabs", "div", "ldiv", "lldiv", "mblen", "mbtowc", "wctomb", "mbstowcs", "wcstombs",
    // string.h
    "memcpy", "memmove", "strcpy", "strncpy", "strcat", "strncat", "memcmp", "strcmp", "strcoll",
    "strncmp", "strxfrm", "memchr", "strchr", "strcspn", "strpbrk", "strrchr", "strspn", "strstr",
    "strtok", "memset", "strerror", "strlen",
    // threads.h, time.h, uchar.h
    "thrd_create", "thrd_current", "thrd_detach", "thrd_equal", "thrd_exit", "thrd_join",
    "thrd_sleep", "thrd_yield", "mtx_init", "mtx_lock", "mtx_unlock", "mtx_destroy", "call_once",
    "clock", "difftime", "mktime", "time", "timespec_get", "asctime", "ctime", "gmtime", "localtime",
    "strftime", "mbrtoc16", "c16rtomb", "mbrtoc32", "c32rtomb",
    // wchar.h, wctype.h (the commonly used)
    "wprintf", "wcslen", "wcscpy", "wcscmp", "fwprintf", "swprintf", "iswalpha", "iswspace",
    // POSIX
    "read", "write", "open", "close", "lseek", "pipe", "dup", "dup2", "fork", "execv", "execve",
    "execvp", "getpid", "sleep", "usleep", "unlink", "access", "chdir", "getcwd", "isatty", "sysconf",
    "fcntl", "mmap", "munmap", "index", "rindex", "bzero", "bcopy", "strdup", "strndup", "strcasecmp",
    "strncasecmp", "dlopen", "dlsym", "dlclose", "dlerror", "pthread_create", "pthread_join",
    "pthread_self", "pthread_mutex_lock", "pthread_mutex_unlock", "pthread_once", "pthread_sigmask",
    "posix_memalign", "nanosleep", "clock_gettime", "gettimeofday", "kill", "wait", "waitpid",
    "select", "poll", "socket", "connect", "bind", "listen", "accept", "send", "recv", "stat",
    "fstat", "lstat", "mkdir", "rmdir", "opendir", "readdir", "closedir", "environ", "optarg",
    "getopt", "j0", "j1", "jn", "y0", "y1", "yn",
};

// math.h functions: each also with the suffixes f (float) and l (long double).
const char* const kMathFunctions[] = {
    "acos", "asin", "atan", "atan2", "cos", "sin", "tan", "acosh", "asinh", "atanh", "cosh", "sinh",
    "tanh", "exp", "exp2", "expm1", "frexp", "ilogb", "ldexp", "log", "log10", "log1p", "log2", "logb",
    "modf", "scalbn", "scalbln", "cbrt", "fabs", "hypot", "pow", "sqrt", "erf", "erfc", "lgamma",
    "tgamma", "ceil", "floor", "nearbyint", "rint", "lrint", "llrint", "round", "lround", "llround",
    "trunc", "fmod", "remainder", "remquo", "copysign", "nan", "nextafter", "nexttoward", "fdim",
    "fmax", "fmin", "fma",
    // complex.h
    "cabs", "cacos", "cacosh", "carg", "casin", "casinh", "catan", "catanh", "ccos", "ccosh", "cexp",
    "cimag", "clog", "conj", "cpow", "cproj", "creal", "csin", "csinh", "csqrt", "ctan", "ctanh",
};

// Macros of the standard headers that are not keywords: a parameter of that name breaks a
// launch function's declaration in any unit that included the header that defines it.
const char* const kLibraryMacros[] = {
    "errno", "assert", "static_assert", "EOF", "BUFSIZ", "FILENAME_MAX", "stdin", "stdout", "stderr",
    "offsetof", "setjmp", "va_arg", "va_start", "va_end", "va_copy", "isnan", "isinf", "isfinite",
    "isnormal", "signbit", "fpclassify", "HUGE_VAL", "INFINITY", "NAN", "EXIT_SUCCESS", "EXIT_FAILURE",
    "RAND_MAX", "CHAR_BIT", "INT_MAX", "INT_MIN", "UINT_MAX", "LONG_MAX", "LONG_MIN", "SIZE_MAX",
    "SEEK_SET", "SEEK_CUR", "SEEK_END", "CLOCKS_PER_SEC", "MB_CUR_MAX", "ONCE_FLAG_INIT", "TIME_UTC", "EDOM", "ERANGE",
    "EILSEQ", "SIGABRT", "SIGFPE", "SIGILL", "SIGINT", "SIGSEGV", "SIGTERM", "SIG_DFL", "SIG_ERR",
    "SIG_IGN", "LC_ALL", "LC_NUMERIC",
};

const std::set<std::string, std::less<>>& library_functions() {
  static const std::set<std::string, std::less<>> names = [] {
    std::set<std::string, std::less<>> s(std::begin(kLibraryFunctions), std::end(kLibraryFunctions));
    for (const char* f : kMathFunctions) {
      s.insert(f);
      s.insert(std::string(f) + "f");
      s.insert(std::string(f) + "l");
    }
    return s;
  }();
  return names;
}

}  // namespace

bool is_c_library_function(std::string_view s) { return library_functions().count(s) > 0; }

bool is_c_library_macro(std::string_view s) {
  static const std::set<std::string, std::less<>> names(std::begin(kLibraryMacros), std::end(kLibraryMacros));
  return names.count(s) > 0;
}

}  // namespace tilec
