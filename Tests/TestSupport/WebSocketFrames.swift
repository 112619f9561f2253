import Foundation

/// A client frame: masked unless told otherwise, the length in its shortest form unless `length` forces one.
package func clientFrame(
    _ opcode: UInt8, _ payload: [UInt8], fin: Bool = true, masked: Bool = true, rsv: UInt8 = 0, forceLengthBytes: Int? = nil
) -> [UInt8] {
    var bytes: [UInt8] = [(fin ? 0x80 : 0) | rsv << 4 | opcode]
    let maskBit: UInt8 = masked ? 0x80 : 0
    let count = payload.count
    switch forceLengthBytes ?? (count <= 125 ? 0 : count <= 0xFFFF ? 2 : 8) {
    case 0: bytes.append(maskBit | UInt8(count))
    case 2: bytes += [maskBit | 126, UInt8(count >> 8), UInt8(count & 0xFF)]
    default:
        bytes.append(maskBit | 127)
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8((count >> shift) & 0xFF)) }
    }
    let mask: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]
    if masked {
        bytes += mask
        bytes += payload.enumerated().map { $0.element ^ mask[$0.offset & 3] }
    } else {
        bytes += payload
    }
    return bytes
}

/// The server's frames in `bytes` (unmasked, as a server sends them).
package func serverFrames(_ bytes: [UInt8]) -> [(opcode: UInt8, payload: [UInt8])] {
    var frames: [(UInt8, [UInt8])] = []
    var index = 0
    while index + 2 <= bytes.count {
        var length = Int(bytes[index + 1] & 0x7F)
        var start = index + 2
        if length == 126 {
            guard index + 4 <= bytes.count else { break }
            length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            start += 2
        } else if length == 127 {
            guard index + 10 <= bytes.count else { break }
            length = bytes[(index + 2)..<(index + 10)].reduce(0) { $0 << 8 | Int($1) }
            start += 8
        }
        guard start + length <= bytes.count else { break }
        frames.append((bytes[index] & 0x0F, Array(bytes[start..<(start + length)])))
        index = start + length
    }
    return frames
}
