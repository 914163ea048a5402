// The subcommands of launchlab-cli, in the order --help lists them. A new subcommand is a file of this folder with
// its add function, a line here and one in app/CMakeLists.txt.
#include "command.h"

namespace launchlab::cli {

std::vector<Command> addCommands(CLI::App& app) {
  using Add = Command (*)(CLI::App&);
  static constexpr Add kAdd[] = {addListCommand,      addInfoCommand,        addRunCommand,     addCompileCommand,
                                 addCheckCommand,     addInstrumentCommand,  addProfileCommand, addSweepCommand,
                                 addOccupancyCommand, addCeilingsCommand,    addCourseCommand,  addShowCommand,
                                 addRenderCommand,    addBenchRenderCommand, addBenchCommand,   addBenchGeometryCommand,
                                 addWorkerCommand};
  std::vector<Command> commands;
  for (Add add : kAdd) commands.push_back(add(app));
  return commands;
}

}  // namespace launchlab::cli
