import Foundation
import SeatKitCLI

let (code, output) = SeatKitTool.run(Array(CommandLine.arguments.dropFirst()))
FileHandle.standardOutput.write(Data(output.out.utf8))
FileHandle.standardError.write(Data(output.err.utf8))
exit(code)
