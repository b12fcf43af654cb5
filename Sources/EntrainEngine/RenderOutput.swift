import EntrainDSP
import EntrainFiles
import Foundation

/// The files of an offline render: the main file (one pair as it is, or several summed under the
/// ceiling) and, optionally, one stem per pair.
// @unchecked: a render hands it to one writer thread at a time (its writes are serialised on the
// render's writer queue; `finish` and `peak` are read after that queue has drained).
final class RenderOutput: @unchecked Sendable {
    let pairs: [OutputPair]
    private let main: any AudioFileWriter
    private let stems: [any AudioFileWriter]
    private let mixdown: MixdownLimiter?
    /// Loudest sample written to the main file.
    private(set) var peak: Float = 0

    /// The stems are written in the main file's container (`entrainment.flac`, …).
    init(main url: URL, stems directory: URL?, pairs: [OutputPair], format: WAVWriter.Format, sampleRate: Int,
         frames: Int, ceiling: Double) throws {
        self.pairs = pairs
        let container = AudioContainer(path: url.path)
        main = try container.writer(url: url, format: format, channels: 2, sampleRate: sampleRate, expectedFrames: frames)
        if let directory = directory {
            try Folder.create(directory)
            stems = try pairs.map {
                try container.writer(url: directory.appendingPathComponent("\($0.rawValue).\(container.fileExtension)"), format: format,
                                     channels: 2, sampleRate: sampleRate, expectedFrames: frames)
            }
        } else {
            stems = []
        }
        mixdown = pairs.count > 1 ? MixdownLimiter(sampleRate: Double(sampleRate), ceilingDecibels: ceiling) : nil
    }

    /// `channels`: left and right of each pair in order, `frames` long.
    func write(_ channels: [UnsafePointer<Float>], frames: Int) throws {
        func buffer(_ c: Int) -> UnsafeBufferPointer<Float> { UnsafeBufferPointer(start: channels[c], count: frames) }
        for (k, stem) in stems.enumerated() { try stem.write([buffer(2 * k), buffer(2 * k + 1)]) }
        guard let mixdown else {
            peak = BlockMath.peak(channels[1], count: frames, floor: BlockMath.peak(channels[0], count: frames, floor: peak))
            return try main.write([buffer(0), buffer(1)])
        }
        let pairs = (0..<self.pairs.count).map { (channels[2 * $0], channels[2 * $0 + 1]) }
        try writeMixed(mixdown.mix(pairs, frames: frames))
    }

    func finish() throws {
        if let mixdown { try writeMixed(mixdown.flush()) }
        try main.finish()
        for stem in stems { try stem.finish() }
    }

    private func writeMixed(_ mixed: (left: [Float], right: [Float])) throws {
        try mixed.left.withUnsafeBufferPointer { l in
            try mixed.right.withUnsafeBufferPointer { r in
                if let lb = l.baseAddress, let rb = r.baseAddress {
                    peak = BlockMath.peak(rb, count: r.count, floor: BlockMath.peak(lb, count: l.count, floor: peak))
                }
                try main.write([l, r])
            }
        }
    }
}
