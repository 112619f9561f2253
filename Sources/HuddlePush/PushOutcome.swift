/// What became of one push to one device, as the delivery's bookkeeping
/// needs it.
public enum PushOutcome: Sendable, Equatable {
    /// The platform took it.
    case delivered
    /// The device is no longer there (404/410 from Web Push and FCM, 410
    /// `Unregistered` from APNs): its registration goes.
    case gone(String)
    /// Worth trying again (the service busy or down, a timeout), not
    /// before `after` when the service said so (Retry-After).
    case retry(String, after: Duration?)
    /// Refused for good (a payload too large, credentials refused): this
    /// notice will not reach this device; the device stays.
    case failed(String)

    /// The outcome of a response with `status` for the cases every platform shares.
    static func of(status: Int, headers: [String: String], body: [UInt8]) -> PushOutcome {
        let detail = "HTTP \(status)" + (body.isEmpty ? "" : ": " + String(decoding: body.prefix(300), as: UTF8.self))
        switch status {
        case 200..<300: return .delivered
        case 404, 410: return .gone(detail)
        case 408, 425, 429, 500..<600:
            return .retry(detail, after: headers["retry-after"].flatMap { Int($0) }.map { .seconds($0) })
        default: return .failed(detail)
        }
    }

    /// The outcome of a request that got no response.
    static func of(_ failure: HTTPClient.Failure) -> PushOutcome {
        failure.refusedAddress ? .failed(failure.description) : .retry(failure.description, after: nil)
    }
}

extension PushOutcome {
    /// The outcome's kind, as a delivery's span names it.
    public var spanName: String {
        switch self {
        case .delivered: "delivered"
        case .gone: "gone"
        case .retry: "retry"
        case .failed: "failed"
        }
    }
}
