#include "environment.h"

#include <unistd.h>

#include <algorithm>
#include <string_view>

namespace launchlab::detail {

std::vector<char*> environmentWith(std::vector<std::string>& extra) {
  std::vector<char*> envp;
  for (char** e = environ; *e; ++e) {
    const std::string_view entry(*e);
    const std::string_view name = entry.substr(0, entry.find('='));
    const bool replaced = std::any_of(extra.begin(), extra.end(), [&](const std::string& x) {
      return x.size() > name.size() && x[name.size()] == '=' && std::string_view(x).substr(0, name.size()) == name;
    });
    if (!replaced) envp.push_back(*e);
  }
  for (auto& x : extra) envp.push_back(x.data());
  envp.push_back(nullptr);
  return envp;
}

}  // namespace launchlab::detail
