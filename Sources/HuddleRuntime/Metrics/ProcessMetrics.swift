#if canImport(Glibc)
    import Glibc
#endif

/// The process's own figures, named as Prometheus's client libraries name
/// them (`process_*`), so dashboards made for any server read them: read
/// from /proc when /metrics is asked, never kept.
enum ProcessMetrics {
    /// The clock ticks /proc counts CPU time in, and the page size.
    private static let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
    /// When the process started, in seconds since the epoch.
    static let startTime: Double = {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        let now = Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
        var uptime = timespec()
        clock_gettime(CLOCK_BOOTTIME, &uptime)
        let bootTime = now - (Double(uptime.tv_sec) + Double(uptime.tv_nsec) / 1e9)
        guard let fields = statFields(), fields.count > 19, let ticks = Double(fields[19]) else { return now }
        return bootTime + ticks / ticksPerSecond
    }()

    /// The fields of /proc/self/stat after the command's name (which may
    /// hold spaces): index 0 is the state, field 3 of the man page.
    private static func statFields() -> [Substring]? {
        guard let text = readFile("/proc/self/stat"), let close = text.lastIndex(of: ")") else { return nil }
        return text[text.index(after: close)...].split(separator: " ")
    }

    private static func readFile(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        return String(decoding: bytes[..<count], as: UTF8.self)
    }

    private static func openDescriptors() -> Int {
        guard let directory = opendir("/proc/self/fd") else { return 0 }
        defer { closedir(directory) }
        var count = 0
        // The name is read in place, up to its NUL: a record is only as
        // long as its name, so copying the whole 256-byte field could read
        // past the end of libc's buffer.
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        while let entry = readdir(directory) {
            let name = UnsafeRawPointer(entry).advanced(by: nameOffset).assumingMemoryBound(to: CChar.self)
            if strcmp(name, ".") != 0 && strcmp(name, "..") != 0 { count += 1 }
        }
        // The descriptor opendir itself holds.
        return max(0, count - 1)
    }

    /// The families, in the text exposition format.
    static func render() -> String {
        var text = ""
        func family(_ name: String, _ type: String, _ help: String, _ value: String) {
            text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n\(name) \(value)\n"
        }
        if let fields = statFields(), fields.count > 21 {
            // utime and stime (fields 14 and 15), vsize and rss (23 and 24).
            let ticks = (Double(fields[11]) ?? 0) + (Double(fields[12]) ?? 0)
            family("process_cpu_seconds_total", "counter", "User and system CPU time spent, in seconds.", "\(ticks / ticksPerSecond)")
            family("process_virtual_memory_bytes", "gauge", "Virtual memory size, in bytes.", fields[20].description)
            family(
                "process_resident_memory_bytes", "gauge", "Resident memory size, in bytes.", "\((Int(fields[21]) ?? 0) * pageSize)")
        }
        family("process_open_fds", "gauge", "Open file descriptors.", "\(openDescriptors())")
        var limit = rlimit()
        if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 {
            family("process_max_fds", "gauge", "The most file descriptors the process may open.", "\(limit.rlim_cur)")
        }
        family(
            "process_start_time_seconds", "gauge", "When the process started, in seconds since the Unix epoch.", "\(startTime)")
        return text
    }
}
