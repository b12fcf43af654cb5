import ArgumentParser
import Logging

extension Logger.Level: @retroactive ExpressibleByArgument {}

enum LogSetup {
    static func logger(level: Logger.Level) -> Logger {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        return Logger(label: "entrain")
    }
}
