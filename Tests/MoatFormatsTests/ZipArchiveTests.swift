@testable import MoatTestSupport
import Foundation
import Testing
@testable import MoatFormats

@Suite("ZIP archive reader")
struct ZipArchiveTests {
    private func sample() -> ZipWriter {
        var writer = ZipWriter()
        writer.add("Payload/App.app/Info.plist", "<plist/>", method: .stored)
        writer.add("Payload/App.app/App", String(repeating: "machine code ", count: 200))
        writer.add("Payload/App.app/", "", method: .stored)
        return writer
    }

    @Test func readsStoredAndDeflatedEntries() throws {
        let archive = try ZipArchive(data: sample().build())
        #expect(archive.entries.map(\.path) == ["Payload/App.app/Info.plist", "Payload/App.app/App", "Payload/App.app"])
        #expect(archive.skipped.isEmpty)
        #expect(archive.warnings.isEmpty)
        let plist = try #require(archive.entry("Payload/App.app/Info.plist"))
        #expect(plist.method == .stored)
        #expect(try archive.read(plist) == Data("<plist/>".utf8))
        let binary = try #require(archive.entry("Payload/App.app/App"))
        #expect(binary.method == .deflated)
        #expect(binary.uncompressedSize == 2600)
        #expect(binary.compressedSize < 2600)
        #expect(try archive.read(binary) == Data(String(repeating: "machine code ", count: 200).utf8))
        #expect(archive.entry("Payload/App.app")?.isDirectory == true)
    }

    @Test func readsFromASliceWithNonZeroStartIndex() throws {
        let padded = Data([1, 2, 3]) + sample().build()
        let archive = try ZipArchive(data: padded[3...])
        #expect(try archive.read(path: "Payload/App.app/Info.plist") == Data("<plist/>".utf8))
    }

    @Test func readsZip64Records() throws {
        var writer = sample()
        writer.zip64 = true
        let archive = try ZipArchive(data: writer.build())
        #expect(archive.isZip64)
        #expect(archive.entries.count == 3)
        #expect(try archive.read(path: "Payload/App.app/App").count == 2600)
    }

    @Test func findsTheEndRecordBehindAComment() throws {
        var writer = sample()
        writer.comment = Data(repeating: 0x41, count: 60_000)
        let archive = try ZipArchive(data: writer.build())
        #expect(archive.entries.count == 3)
    }

    @Test func refusesUnsafeNames() throws {
        var writer = ZipWriter()
        writer.add("../../etc/passwd", "x")
        writer.add("Payload/../../evil", "x")
        writer.add("/etc/hosts", "x")
        writer.add("C:/Windows/win.ini", "x")
        writer.add("Payload\\App.app\\x", "x")
        var nul = ZipWriter.Entry("a", Data("x".utf8))
        nul.rawName = Array("ok\u{0}.txt".utf8)
        writer.entries.append(nul)
        writer.add("./Payload//App.app/./ok.txt", "fine")
        let archive = try ZipArchive(data: writer.build())
        #expect(archive.entries.map(\.path) == ["Payload/App.app/ok.txt"])
        #expect(archive.skipped.map(\.reason) == [
            .unsafePath("'..' component"), .unsafePath("'..' component"), .unsafePath("absolute path"),
            .unsafePath("drive letter"), .unsafePath("backslash"), .unsafePath("NUL byte"),
        ])
        #expect(archive.skipped.first?.path == "../../etc/passwd")
    }

    @Test func skipsDuplicatesEncryptedAndUnsupportedEntries() throws {
        var writer = ZipWriter()
        writer.add("a.txt", "first")
        writer.add("a.txt", "second")
        var encrypted = ZipWriter.Entry("secret.txt", Data("x".utf8))
        encrypted.flags |= 1
        writer.entries.append(encrypted)
        var bzip2 = ZipWriter.Entry("b.bz2", Data("x".utf8), method: .stored)
        bzip2.methodCode = 12
        writer.entries.append(bzip2)
        let archive = try ZipArchive(data: writer.build())
        #expect(archive.entries.map(\.path) == ["a.txt"])
        #expect(try archive.read(path: "a.txt") == Data("first".utf8))
        #expect(archive.skipped.map(\.reason) == [.duplicateName, .encrypted, .unsupportedMethod(12)])
    }

    @Test func sizesThatLieFailOnRead() throws {
        var writer = ZipWriter()
        var small = ZipWriter.Entry("small", Data(repeating: 7, count: 100))
        small.declaredUncompressedSize = 10
        writer.entries.append(small)
        var large = ZipWriter.Entry("large", Data(repeating: 7, count: 100))
        large.declaredUncompressedSize = 1000
        writer.entries.append(large)
        var crc = ZipWriter.Entry("crc", Data(repeating: 7, count: 100))
        crc.declaredCRC = 1234
        writer.entries.append(crc)
        var stored = ZipWriter.Entry("stored", Data(repeating: 7, count: 100), method: .stored)
        stored.declaredUncompressedSize = 50
        writer.entries.append(stored)
        let archive = try ZipArchive(data: writer.build())
        #expect(archive.entries.map(\.path) == ["small", "large", "crc"])
        #expect(archive.skipped.map(\.path) == ["stored"])
        #expect(throws: BinaryFormatError(.zip, "small: inflates to more than the declared 10 bytes")) {
            try archive.read(path: "small")
        }
        #expect(throws: BinaryFormatError(.zip, "large: inflates to 100 bytes, header says 1000")) {
            try archive.read(path: "large")
        }
        #expect(throws: BinaryFormatError(.zip, "crc: CRC-32 mismatch")) { try archive.read(path: "crc") }
    }

    @Test func refusesAZipBombByRatio() throws {
        var writer = ZipWriter()
        writer.add("bomb", Data(count: 4 << 20))
        writer.add("ok", Data(count: 1000))
        let data = writer.build()
        let strict = try ZipArchive(data: data, limits: ZipLimits(maximumCompressionRatio: 100))
        #expect(strict.entries.map(\.path) == ["ok"])
        guard case .compressionRatio(let ratio)? = strict.skipped.first?.reason else {
            Issue.record("expected a ratio refusal, got \(strict.skipped)")
            return
        }
        #expect(ratio > 100)
        // Small entries are not judged by ratio.
        #expect(try strict.read(path: "ok") == Data(count: 1000))
    }

    @Test func boundsEntrySizeTotalSizeAndEntryCount() throws {
        var writer = ZipWriter()
        for index in 0..<5 { writer.add("file\(index)", Data(repeating: UInt8(index), count: 400), method: .stored) }
        let data = writer.build()
        let total = try ZipArchive(data: data, limits: ZipLimits(maximumTotalUncompressedSize: 1000))
        #expect(total.entries.map(\.path) == ["file0", "file1"])
        #expect(total.skipped.map(\.reason) == [.totalSizeExceeded, .totalSizeExceeded, .totalSizeExceeded])
        let perEntry = try ZipArchive(data: data, limits: ZipLimits(maximumEntrySize: 399))
        #expect(perEntry.entries.isEmpty)
        #expect(perEntry.skipped.first?.reason == .entryTooLarge(400))
        let count = try ZipArchive(data: data, limits: ZipLimits(maximumEntries: 3))
        #expect(count.entries.map(\.path) == ["file0", "file1", "file2"])
        #expect(count.skipped == [ZipSkippedEntry(path: "", reason: .tooManyEntries(3))])
    }

    @Test func skipsOverlappingEntries() throws {
        // "outer" is a stored entry whose data is a whole second local header and its data; the central
        // directory lists both, so "inner" lies inside "outer".
        var inner = ZipWriter()
        inner.add("inner", "hello", method: .stored)
        let innerArchive = inner.build()
        let innerLocal = innerArchive.prefix(30 + 5 + 5)
        var writer = ZipWriter()
        writer.entries.append(ZipWriter.Entry("outer", Data(innerLocal), method: .stored))
        var data = writer.build()
        // Rebuild the central directory by hand with a second record pointing inside "outer".
        let archive1 = try ZipArchive(data: data)
        #expect(archive1.entries.map(\.path) == ["outer"])
        let outerDataOffset = Int(try #require(archive1.entry("outer")).dataOffset)
        data = Self.appendingCentralRecord(to: data, name: "inner", localOffset: UInt32(outerDataOffset),
                                           size: 5, crc: ZipWriter.crc(Data("hello".utf8)))
        let archive = try ZipArchive(data: data)
        #expect(archive.entries.map(\.path) == ["outer"])
        #expect(archive.skipped == [ZipSkippedEntry(path: "inner", reason: .overlaps("outer"))])
    }

    @Test func sharedLocalHeadersAreOverlaps() throws {
        var writer = ZipWriter()
        writer.add("kernel", Data(count: 200))
        var alias = ZipWriter.Entry("kernel", Data(count: 200))
        alias.localHeaderOf = 0
        writer.entries.append(alias)
        let archive = try ZipArchive(data: writer.build())
        #expect(archive.entries.map(\.path) == ["kernel"])
        #expect(archive.skipped.map(\.reason) == [.duplicateName])
    }

    @Test func localHeaderMustAgreeWithTheCentralDirectory() throws {
        var writer = ZipWriter()
        var entry = ZipWriter.Entry("Info.plist", Data("x".utf8))
        entry.localName = "Other.plist"
        writer.entries.append(entry)
        let archive = try ZipArchive(data: writer.build())
        #expect(archive.entries.isEmpty)
        #expect(archive.skipped.first?.reason == .inconsistentHeader("local header name differs from the central directory"))
    }

    @Test func marksSymbolicLinks() throws {
        var writer = ZipWriter()
        var link = ZipWriter.Entry("Payload/App.app/link", Data("/etc/passwd".utf8), method: .stored)
        link.unixMode = 0o120777
        writer.entries.append(link)
        let archive = try ZipArchive(data: writer.build())
        #expect(archive.entry("Payload/App.app/link")?.isSymbolicLink == true)
    }

    @Test func refusesGarbage() {
        #expect(throws: BinaryFormatError.self) { try ZipArchive(data: Data()) }
        #expect(throws: BinaryFormatError.self) { try ZipArchive(data: Data(repeating: 0x50, count: 1000)) }
    }

    @Test func truncatedArchivesThrowOrSkipButNeverCrash() throws {
        var writer = sample()
        writer.add("Payload/App.app/more.txt", String(repeating: "abc", count: 300))
        for zip64 in [false, true] {
            writer.zip64 = zip64
            let data = writer.build()
            for length in stride(from: 0, to: data.count, by: 7) {
                Self.exercise(Data(data.prefix(length)))
            }
        }
    }

    @Test func corruptedBytesNeverCrash() throws {
        var writer = sample()
        writer.zip64 = true
        let data = writer.build()
        for position in stride(from: 0, to: data.count, by: 7) {
            for value: UInt8 in [0x00, 0xFF, 0x7F] {
                var corrupt = data
                corrupt[position] = value
                Self.exercise(corrupt)
            }
        }
    }

    static func exercise(_ data: Data) {
        guard let archive = try? ZipArchive(data: data) else { return }
        for entry in archive.entries { _ = try? archive.read(entry) }
    }

    /// Appends one stored-entry central record to an archive and rewrites its end record.
    static func appendingCentralRecord(to archive: Data, name: String, localOffset: UInt32, size: UInt32, crc: UInt32) -> Data {
        let endOffset = archive.count - 22
        let records = archive.subdata(in: endOffset - 46 - 5 ..< endOffset) // the single "outer" record
        let directoryStart = endOffset - records.count
        var out = ByteWriter()
        out.bytes(archive.prefix(endOffset))
        out.u32(0x0201_4b50); out.u16(0x0314); out.u16(20); out.u16(0x0800); out.u16(0)
        out.u16(0); out.u16(0x21); out.u32(crc); out.u32(size); out.u32(size)
        out.u16(UInt16(name.utf8.count)); out.u16(0); out.u16(0); out.u16(0); out.u16(0)
        out.u32(UInt32(0o100644) << 16); out.u32(localOffset); out.string(name)
        let directorySize = out.count - directoryStart
        out.u32(0x0605_4b50); out.u16(0); out.u16(0); out.u16(2); out.u16(2)
        out.u32(UInt32(directorySize)); out.u32(UInt32(directoryStart)); out.u16(0)
        return out.data
    }
}
