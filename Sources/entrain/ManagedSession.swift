import EntrainAddressSpace
import ArgumentParser
import EntrainControl
import EntrainJACK
import Foundation
import Logging

/// A run under a session manager (NSM_URL set): announce, wait for the session to open (JACK
/// is not touched before), keep the whole state under the path it names, answer saves and say
/// when there are unsaved changes. Connections are the manager's job: none are made or restored.
final class ManagedSession {
    let nsm: NSMClient
    let open: NSMClient.Open
    let store: NSMStore
    /// What was saved there before this run (nil: a new client in the session).
    let stored: NSMState?
    let logger: Logger
    /// What the last save (or the restore) held, to tell dirty from clean.
    private var savedSignature: String?
    /// The open has had its answer (opened, or an error).
    private var answered = false
    private var nextCheck = Date.distantPast
    static let dirtyCheckInterval = 0.5

    /// nil without NSM_URL. Throws when the manager refuses us, or `stop` ends the wait.
    static func start(logger: Logger, stop: () -> Bool) throws -> ManagedSession? {
        guard let nsm = NSMClient.fromEnvironment(logger: logger) else { return nil }
        nsm.announce(name: "entrain", executable: CommandLine.arguments.first ?? "entrain")
        let open = try nsm.waitForOpen(stop: stop)
        // The client id becomes our JACK name: one JACK refuses is refused here, in words, to the manager.
        guard !open.clientID.isEmpty, open.clientID.utf8.count <= JackClient.maximumNameLength else {
            let reason = "the client id is \(open.clientID.utf8.count) bytes long; a JACK client name is 1 to \(JackClient.maximumNameLength)"
            nsm.reply(error: NSMClient.errorGeneral, to: "/nsm/client/open", reason)
            throw ValidationError("NSM: \(reason)")
        }
        let store = NSMStore(path: open.path)
        do {
            let stored = try store.loadState()
            logger.info("NSM: opened '\(open.displayName)' as \(open.clientID)\(stored == nil ? " (new)" : "")")
            return ManagedSession(nsm: nsm, open: open, store: store, stored: stored, logger: logger)
        } catch {
            nsm.reply(error: NSMClient.errorBadProject, to: "/nsm/client/open", "\(error)")
            throw error
        }
    }

    private init(nsm: NSMClient, open: NSMClient.Open, store: NSMStore, stored: NSMState?, logger: Logger) {
        self.nsm = nsm
        self.open = open
        self.store = store
        self.stored = stored
        self.logger = logger
    }

    /// Every family's values and the session as saved (a session file that is gone is skipped
    /// with a warning; the values still load).
    func restore(space: AddressSpace, transport: SessionTransport, load: (String) throws -> SessionProgram) throws {
        if let values = try store.loadValues() {
            // What this version refuses (an older save's mapping onto the strobe's arming) is dropped, the rest restored.
            let (changes, problems) = try Presets.read(values.text, file: values.label)
            for problem in problems { logger.warning("NSM: dropped from the saved state: \(problem)") }
            try space.set(changes, from: .file)
        }
        guard let place = stored?.session else { return }
        do {
            transport.load(try load(place.file), source: URL(fileURLWithPath: place.file))
            try? transport.seek(place.position)
            if place.state == SessionTransport.State.playing.rawValue { try transport.play() }
        } catch {
            logger.warning("NSM: the saved session \(place.file) could not be loaded again (\(error)); the values are restored")
        }
    }

    /// Opening failed after the manager's open (a saved rig that does not read, JACK refusing
    /// us): tell the manager why. Once the open is answered, an error ends the run unanswered.
    func failed(_ error: Error) {
        guard !answered else { return }
        answered = true
        nsm.reply(error: NSMClient.errorGeneral, to: "/nsm/client/open", "\(error)")
    }

    /// JACK is registered and the state restored: tell the manager.
    func opened(_ state: () -> (NSMState, String)) {
        answered = true
        savedSignature = Self.signature(state())
        nsm.replied(to: "/nsm/client/open", "opened")
        nsm.setDirty(false)
    }

    /// From the run loop: answer saves, and say dirty or clean as the state moves away from
    /// (or back to) what was saved. The session's position alone does not make it dirty.
    func tick(now: Date = Date(), _ state: () -> (NSMState, String)) {
        for request in nsm.poll() where request == .save { save(state()) }
        guard now >= nextCheck else { return }
        nextCheck = now.addingTimeInterval(Self.dirtyCheckInterval)
        nsm.setDirty(Self.signature(state()) != savedSignature)
    }

    private func save(_ state: (NSMState, String)) {
        do {
            try store.save(state.0, values: state.1)
            savedSignature = Self.signature(state)
            nsm.replied(to: "/nsm/client/save", "saved")
            nsm.setDirty(false)
            logger.info("NSM: saved to \(store.folder.path)")
        } catch {
            nsm.reply(error: NSMClient.errorGeneral, to: "/nsm/client/save", "\(error)")
            logger.error("NSM: could not save: \(error)")
        }
    }

    private static func signature(_ state: (NSMState, String)) -> String {
        var place = state.0
        place.session?.position = 0
        return "\(place)\n\(state.1)"
    }
}
