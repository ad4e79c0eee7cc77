/* dropkit-embed: a C host of the core (dist/dropkit.wasm through wasm2c) over the dk_* ABI of docs/embedding.md. */

#define _XOPEN_SOURCE 700

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dropkit.h"
#include "wasm-rt-impl.h"

extern char** environ;

/* Exit codes, as the dropkit CLI uses them (SPEC section 8). */
enum { EXIT_USAGE = 64, EXIT_NOT_FOUND = 66, EXIT_INTERNAL = 70 };

/* A growable byte buffer: requests are built here, then copied into the module's memory in one go. */
typedef struct {
  char* data;
  size_t len, cap;
} buf_t;

static void buf_put(buf_t* b, const char* bytes, size_t n) {
  if (b->len + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 4096;
    while (b->len + n + 1 > cap) cap *= 2;
    char* data = realloc(b->data, cap);
    if (!data) {
      fprintf(stderr, "dropkit-embed: out of memory\n");
      exit(EXIT_INTERNAL);
    }
    b->data = data;
    b->cap = cap;
  }
  memcpy(b->data + b->len, bytes, n);
  b->len += n;
  /* Always NUL-terminated, so a response can be searched with strstr. */
  b->data[b->len] = '\0';
}

static void buf_str(buf_t* b, const char* s) {
  buf_put(b, s, strlen(s));
}

/* Appends `bytes` as a JSON string. UTF-8 passes through as is: the core checks it (invalid UTF-8 is status 1). */
static void buf_json(buf_t* b, const char* bytes, size_t n) {
  buf_str(b, "\"");
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)bytes[i];
    char esc[8];
    if (c == '"' || c == '\\') {
      esc[0] = '\\';
      esc[1] = (char)c;
      buf_put(b, esc, 2);
    } else if (c < 0x20) {
      snprintf(esc, sizeof esc, "\\u%04x", c);
      buf_str(b, esc);
    } else {
      buf_put(b, (const char*)&bytes[i], 1);
    }
  }
  buf_str(b, "\"");
}

static int read_stream(FILE* f, buf_t* b) {
  char chunk[65536];
  size_t n;
  while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) buf_put(b, chunk, n);
  return ferror(f) ? -1 : 0;
}

static void read_file(const char* path, buf_t* b) {
  FILE* f = fopen(path, "rb");
  if (!f || read_stream(f, b) != 0) {
    fprintf(stderr, "dropkit-embed: cannot read %s: %s\n", path, strerror(errno));
    exit(EXIT_NOT_FOUND);
  }
  fclose(f);
}

/*
 * One request through the ABI: dk_alloc, copy the bytes in, dk_call, dk_free, copy the response out.
 * Returns WASM_RT_TRAP_NONE, or the trap that stopped the module (the instance must then be discarded).
 */
static wasm_rt_trap_t core_call(Z_dropkit_instance_t* core, const buf_t* request, u32* status, buf_t* response) {
  /* A trap inside any of the calls below longjmps back here with its reason. */
  wasm_rt_trap_t trap = wasm_rt_impl_try();
  if (trap != WASM_RT_TRAP_NONE) return trap;

  u32 len = (u32)request->len;
  u32 ptr = Z_dropkitZ_dk_alloc(core, len);
  /* Take the memory only after the call: dk_alloc may grow it, and growth may move `data`. */
  wasm_rt_memory_t* memory = Z_dropkitZ_memory(core);
  if ((u64)ptr + len > memory->size) return WASM_RT_TRAP_OOB;
  memcpy(memory->data + ptr, request->data, len);

  *status = Z_dropkitZ_dk_call(core, ptr, len);
  Z_dropkitZ_dk_free(core, ptr);

  u32 out = Z_dropkitZ_dk_out_ptr(core);
  u32 out_len = Z_dropkitZ_dk_out_len(core);
  memory = Z_dropkitZ_memory(core);
  if ((u64)out + out_len > memory->size) return WASM_RT_TRAP_OOB;
  /* Copied out: the bytes in the module are valid only until the next dk_call. */
  response->len = 0;
  buf_put(response, (const char*)memory->data + out, out_len);
  return WASM_RT_TRAP_NONE;
}

/* The exit code for a response: 0 when ok, else the first error's (SPEC section 8). */
static int exit_code_of(const char* response) {
  if (strncmp(response, "{\"ok\":true", 10) == 0) return 0;
  /* The core writes each error as {"name":...,"exitCode":N,...}; quotes inside strings are escaped, so this is a key. */
  const char* errors = strstr(response, "\"errors\":[{");
  const char* code = errors ? strstr(errors, "\"exitCode\":") : NULL;
  return code ? atoi(code + 11) : 1;
}

/* "package.json" selects the format whose config is the "dropkit" key. */
static const char* format_of(const char* path) {
  const char* slash = strrchr(path, '/');
  return strcmp(slash ? slash + 1 : path, "package.json") == 0 ? "package.json" : "json";
}

/* The members of a source in a request: "format":"...","source":"<file>","text":"<its contents>". */
static void buf_source(buf_t* req, const char* file) {
  buf_t text = {0};
  read_file(file, &text);
  buf_str(req, "\"format\":\"");
  buf_str(req, format_of(file));
  buf_str(req, "\",\"source\":");
  buf_json(req, file, strlen(file));
  buf_str(req, ",\"text\":");
  buf_json(req, text.data ? text.data : "", text.len);
  free(text.data);
}

static void validate_request(buf_t* req, const char* file) {
  buf_str(req, "{\"op\":\"validate\",");
  buf_source(req, file);
  buf_str(req, "}");
}

static char* absolute(const char* path) {
  char* abs = realpath(path, NULL);
  if (!abs) {
    fprintf(stderr, "dropkit-embed: %s: %s\n", path, strerror(errno));
    exit(EXIT_NOT_FOUND);
  }
  return abs;
}

/*
 * A resolve that reaches stage "done" in one call: it sends the drop's file names for auto-detect and says that
 * no preset files were found (presetFiles: []), since this host loads none. A full host answers the "presets"
 * and "detect" stages instead (docs/abi.md).
 */
static void resolve_request(buf_t* req, const char* cwd_arg, const char* file) {
  char* cwd = absolute(cwd_arg);
  buf_str(req, "{\"op\":\"resolve\",\"cwd\":");
  buf_json(req, cwd, strlen(cwd));

  buf_str(req, ",\"env\":{");
  int first = 1;
  for (char** e = environ; *e; e++) {
    const char* eq = strchr(*e, '=');
    if (strncmp(*e, "DROPKIT_", 8) != 0 || !eq) continue;
    if (!first) buf_str(req, ",");
    first = 0;
    buf_json(req, *e, (size_t)(eq - *e));
    buf_str(req, ":");
    buf_json(req, eq + 1, strlen(eq + 1));
  }
  buf_str(req, "}");

  if (file) {
    char* source = absolute(file);
    buf_str(req, ",\"config\":{");
    buf_source(req, source);
    buf_str(req, "}");
    free(source);
  }

  /* The top-level names of the drop: `files` for the detect globs, and the *.zip ones as `archives` for a plan. */
  buf_t files = {0}, archives = {0};
  DIR* dir = opendir(cwd);
  if (!dir) {
    fprintf(stderr, "dropkit-embed: cannot list %s: %s\n", cwd, strerror(errno));
    exit(EXIT_NOT_FOUND);
  }
  struct dirent* entry;
  while ((entry = readdir(dir))) {
    const char* name = entry->d_name;
    size_t n = strlen(name);
    if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0) continue;
    if (files.len) buf_str(&files, ",");
    buf_json(&files, name, n);
    if (n > 4 && strcmp(name + n - 4, ".zip") == 0) {
      if (archives.len) buf_str(&archives, ",");
      buf_json(&archives, name, n);
    }
  }
  closedir(dir);
  buf_str(req, ",\"presetFiles\":[],\"presetNames\":[],\"files\":[");
  if (files.len) buf_put(req, files.data, files.len);
  buf_str(req, "],\"archives\":[");
  if (archives.len) buf_put(req, archives.data, archives.len);
  buf_str(req, "]}");
  free(files.data);
  free(archives.data);
  free(cwd);
}

static int usage(void) {
  fprintf(stderr,
          "usage: dropkit-embed validate <config-file>\n"
          "       dropkit-embed resolve <cwd> [config-file]\n"
          "       dropkit-embed call < request.json > response.json\n");
  return EXIT_USAGE;
}

int main(int argc, char** argv) {
  if (argc < 2) return usage();
  const char* mode = argv[1];
  buf_t request = {0}, response = {0};
  if (strcmp(mode, "validate") == 0 && argc == 3) {
    validate_request(&request, argv[2]);
  } else if (strcmp(mode, "resolve") == 0 && (argc == 3 || argc == 4)) {
    resolve_request(&request, argv[2], argc == 4 ? argv[3] : NULL);
  } else if (strcmp(mode, "call") == 0 && argc == 2) {
    if (read_stream(stdin, &request) != 0) {
      fprintf(stderr, "dropkit-embed: cannot read the request from stdin: %s\n", strerror(errno));
      return EXIT_NOT_FOUND;
    }
  } else {
    return usage();
  }

  /* Once per process: the runtime (trap handling, signal handlers), then the module's function types. */
  wasm_rt_init();
  Z_dropkit_init_module();
  Z_dropkit_instance_t core;
  int code;
  u32 version = 0;
  /* Instantiation runs the module's start function, which could trap too. */
  wasm_rt_trap_t trap = wasm_rt_impl_try();
  if (trap == WASM_RT_TRAP_NONE) {
    Z_dropkit_instantiate(&core);
    version = Z_dropkitZ_dk_abi_version(&core);
  } else {
    fprintf(stderr, "dropkit-embed: internal error: the core trapped while starting (%s); please report this\n", wasm_rt_strerror(trap));
    wasm_rt_free();
    return EXIT_INTERNAL;
  }
  if (version != 1) {
    fprintf(stderr, "dropkit-embed: the core speaks ABI version %u; this host knows version 1\n", version);
    code = EXIT_INTERNAL;
  } else {
    u32 status = 0;
    trap = core_call(&core, &request, &status, &response);
    if (trap != WASM_RT_TRAP_NONE) {
      /* A trap is a bug in the core. This process ends; a long-lived host would Z_dropkit_free and instantiate anew. */
      fprintf(stderr, "dropkit-embed: internal error: the core trapped (%s); please report this\n", wasm_rt_strerror(trap));
      code = EXIT_INTERNAL;
    } else {
      fwrite(response.data ? response.data : "", 1, response.len, stdout);
      if (strcmp(mode, "call") == 0) {
        /* The raw mode answers with the ABI's status (0, 1 or 2) and the response bytes exactly as the core wrote them. */
        code = (int)status;
      } else {
        fputc('\n', stdout);
        code = status != 0 ? EXIT_INTERNAL : exit_code_of(response.data ? response.data : "");
      }
    }
  }

  Z_dropkit_free(&core);
  wasm_rt_free();
  free(request.data);
  free(response.data);
  if (fflush(stdout) != 0) return EXIT_INTERNAL;
  return code;
}
