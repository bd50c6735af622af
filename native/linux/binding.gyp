{
  "targets": [
    {
      "target_name": "rea_pty",
      "sources": ["pty-spawn.c", "master-reader.c", "detached-spawn.c"],
      "cflags": ["-std=gnu11", "-Wall", "-Wextra", "-Werror=implicit-function-declaration"],
      "conditions": [["OS!='linux'", {"type": "none"}]]
    },
    {
      "target_name": "rea-supervisor",
      "type": "executable",
      "sources": ["supervisor-waiter.c"],
      "cflags": ["-std=gnu11", "-Wall", "-Wextra", "-Werror=implicit-function-declaration"],
      "conditions": [["OS!='linux'", {"type": "none"}]]
    }
  ]
}
