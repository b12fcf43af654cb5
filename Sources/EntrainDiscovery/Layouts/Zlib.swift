import CZlib
import Foundation

/// zlib's own stream format (header, deflate, Adler-32), as TouchOSC stores its `.tosc` files.
enum Zlib {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func compress(_ data: Data) throws -> Data {
        var size = compressBound(uLong(data.count))
        var out = [UInt8](repeating: 0, count: Int(size))
        let status = data.withUnsafeBytes { input in
            compress2(&out, &size, input.bindMemory(to: Bytef.self).baseAddress, uLong(data.count), Z_BEST_COMPRESSION)
        }
        guard status == Z_OK else { throw Failure(description: "zlib could not compress (\(status))") }
        return Data(out.prefix(Int(size)))
    }
}
