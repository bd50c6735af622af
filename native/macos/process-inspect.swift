// REA's process-inspection helper for macOS: the narrow native boundary that /proc provides on Linux.
// REA compiles it with `xcrun swiftc -O` into a private temporary directory before a capture and removes the
// directory when REA exits. It only reads: it never signals, writes or installs anything.
//
// Usage (one JSON document on stdout, exit 0; usage errors exit 2 with a message on stderr):
//   process-inspect snapshot <ENTRY|->   every process; environment checked for the exact entry NAME=value
//   process-inspect process <PID> <ENTRY|->   one process, or {"gone": true}
//   process-inspect boot                 {"boot_id": "...", "now_ticks": N}
//
// A process record:
//   {"pid": 1, "ppid": 0, "pgid": 1, "sid": 1, "start_ticks": 12, "comm": "launchd", "state": "S",
//    "environ": "carries" | "lacks" | "empty" | "unreadable", "environ_error": "EPERM" (only when unreadable)}
// start_ticks counts 10 ms units since boot, the unit of Linux start times. state is one of I R S T Z.

import Darwin
import Foundation

struct ProcessRecord: Encodable {
    let pid: Int32
    let ppid: Int32
    let pgid: Int32
    let sid: Int32
    let start_ticks: Int64
    let comm: String
    let state: String
    let environ: String
    let environ_error: String?
}

struct Snapshot: Encodable {
    let version: Int
    let boot_id: String
    let now_ticks: Int64
    let processes: [ProcessRecord]
}

struct Single: Encodable {
    let version: Int
    let boot_id: String
    let gone: Bool
    let process: ProcessRecord?
}

struct Boot: Encodable {
    let version: Int
    let boot_id: String
    let now_ticks: Int64
}

let formatVersion = 1

func fail(_ message: String) -> Never {
    FileHandle.standardError.write((message + "\n").data(using: .utf8)!)
    exit(2)
}

func bootTime() -> timeval {
    var mib: [Int32] = [CTL_KERN, KERN_BOOTTIME]
    var value = timeval()
    var size = MemoryLayout<timeval>.size
    if sysctl(&mib, 2, &value, &size, nil, 0) != 0 { fail("kern.boottime: errno \(errno)") }
    return value
}

func bootID() -> String {
    var size = 0
    if sysctlbyname("kern.bootsessionuuid", nil, &size, nil, 0) != 0 || size == 0 { return "unknown" }
    var buffer = [CChar](repeating: 0, count: size)
    if sysctlbyname("kern.bootsessionuuid", &buffer, &size, nil, 0) != 0 { return "unknown" }
    return String(cString: buffer)
}

func ticks(since boot: timeval, at moment: timeval) -> Int64 {
    let micros = (Int64(moment.tv_sec) - Int64(boot.tv_sec)) * 1_000_000 + (Int64(moment.tv_usec) - Int64(boot.tv_usec))
    return micros / 10_000
}

func nowTicks(since boot: timeval) -> Int64 {
    var now = timeval()
    gettimeofday(&now, nil)
    return ticks(since: boot, at: now)
}

func stateLetter(_ stat: CChar) -> String {
    switch Int32(stat) {
    case SIDL: return "I"
    case SRUN: return "R"
    case SSLEEP: return "S"
    case SSTOP: return "T"
    case SZOMB: return "Z"
    default: return "?"
    }
}

func errnoName(_ code: Int32) -> String {
    switch code {
    case EPERM: return "EPERM"
    case EINVAL: return "EINVAL"
    case ESRCH: return "ESRCH"
    case ENOMEM: return "ENOMEM"
    default: return "ERRNO_\(code)"
    }
}

/// Reads the environment from KERN_PROCARGS2: argc, the exec path, padding, argv, then NAME=value entries.
func environ(of pid: Int32, entry: String?) -> (String, String?) {
    guard let entry = entry else { return ("lacks", nil) }
    var argmaxMib: [Int32] = [CTL_KERN, KERN_ARGMAX]
    var argmax: Int32 = 0
    var size = MemoryLayout<Int32>.size
    if sysctl(&argmaxMib, 2, &argmax, &size, nil, 0) != 0 { return ("unreadable", errnoName(errno)) }
    var buffer = [UInt8](repeating: 0, count: Int(argmax))
    var mib: [Int32] = [CTL_KERN, KERN_PROCARGS2, pid]
    size = buffer.count
    if sysctl(&mib, 3, &buffer, &size, nil, 0) != 0 {
        let code = errno
        return code == ESRCH ? ("gone", nil) : ("unreadable", errnoName(code))
    }
    if size < MemoryLayout<Int32>.size { return ("unreadable", "SHORT") }
    let argc = buffer.withUnsafeBytes { $0.load(as: Int32.self) }
    var index = MemoryLayout<Int32>.size
    func skipString() { while index < size && buffer[index] != 0 { index += 1 } }
    skipString()                                             // exec path
    while index < size && buffer[index] == 0 { index += 1 }  // padding
    for _ in 0..<argc { skipString(); index += 1 }           // argv
    let wanted = Array(entry.utf8)
    var sawAny = false
    while index < size {
        let start = index
        skipString()
        if index == start { break }                          // the empty string ends the environment
        sawAny = true
        if Array(buffer[start..<index]) == wanted { return ("carries", nil) }
        index += 1
    }
    return (sawAny ? "lacks" : "empty", nil)
}

func allProcesses() -> [kinfo_proc] {
    var mib: [Int32] = [CTL_KERN, KERN_PROC, KERN_PROC_ALL, 0]
    for _ in 0..<5 {
        var size = 0
        if sysctl(&mib, 4, nil, &size, nil, 0) != 0 { fail("kern.proc.all: errno \(errno)") }
        size += size / 8                                     // room for processes started meanwhile
        var list = [kinfo_proc](repeating: kinfo_proc(), count: size / MemoryLayout<kinfo_proc>.stride)
        if sysctl(&mib, 4, &list, &size, nil, 0) == 0 {
            return Array(list.prefix(size / MemoryLayout<kinfo_proc>.stride))
        }
        if errno != ENOMEM { fail("kern.proc.all: errno \(errno)") }
    }
    fail("kern.proc.all: the process list kept growing")
}

func record(_ info: kinfo_proc, boot: timeval, entry: String?) -> ProcessRecord? {
    let pid = info.kp_proc.p_pid
    var comm = info.kp_proc.p_comm
    let name = withUnsafeBytes(of: &comm) { raw in String(cString: raw.bindMemory(to: CChar.self).baseAddress!) }
    let (environ, error) = environ(of: pid, entry: entry)
    if environ == "gone" { return nil }
    let sid = getsid(pid)
    return ProcessRecord(
        pid: pid,
        ppid: info.kp_eproc.e_ppid,
        pgid: info.kp_eproc.e_pgid,
        sid: sid < 0 ? 0 : sid,
        start_ticks: ticks(since: boot, at: info.kp_proc.p_starttime),
        comm: name,
        state: stateLetter(info.kp_proc.p_stat),
        environ: environ,
        environ_error: error
    )
}

func printJSON<T: Encodable>(_ value: T) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    guard let data = try? encoder.encode(value) else { fail("could not encode the result") }
    FileHandle.standardOutput.write(data)
    FileHandle.standardOutput.write("\n".data(using: .utf8)!)
}

let arguments = CommandLine.arguments
guard arguments.count >= 2 else { fail("usage: process-inspect snapshot|process|boot …") }
let boot = bootTime()
switch arguments[1] {
case "snapshot":
    guard arguments.count == 3 else { fail("usage: process-inspect snapshot <ENTRY|->") }
    let entry = arguments[2] == "-" ? nil : arguments[2]
    let processes = allProcesses().compactMap { record($0, boot: boot, entry: entry) }
    printJSON(Snapshot(version: formatVersion, boot_id: bootID(), now_ticks: nowTicks(since: boot), processes: processes))
case "process":
    guard arguments.count == 4, let pid = Int32(arguments[2]) else { fail("usage: process-inspect process <PID> <ENTRY|->") }
    let entry = arguments[3] == "-" ? nil : arguments[3]
    var mib: [Int32] = [CTL_KERN, KERN_PROC, KERN_PROC_PID, pid]
    var info = kinfo_proc()
    var size = MemoryLayout<kinfo_proc>.stride
    let found = sysctl(&mib, 4, &info, &size, nil, 0) == 0 && size > 0
    let single = found ? record(info, boot: boot, entry: entry) : nil
    printJSON(Single(version: formatVersion, boot_id: bootID(), gone: single == nil, process: single))
case "boot":
    printJSON(Boot(version: formatVersion, boot_id: bootID(), now_ticks: nowTicks(since: boot)))
default:
    fail("unknown command \(arguments[1]); expected snapshot, process or boot")
}
