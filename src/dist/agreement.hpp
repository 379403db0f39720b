// Collective agreement on whether a step succeeded on every rank, for twiddle::dist and the CLI's
// --mpi: a step one rank failed makes every rank throw, with that rank's reason, instead of
// leaving the others waiting in the next collective.
#pragma once

#include <mpi.h>

#include <climits>
#include <string>

namespace twiddle::dist::detail {

// Collective over comm. Empty where `why` is empty on every rank; else the reason of the lowest
// failing rank, as that rank gave it, or as "rank R: why" on the other ranks.
inline std::string first_failure(MPI_Comm comm, const std::string& why) {
    int me = 0;
    MPI_Comm_rank(comm, &me);
    int mine = why.empty() ? INT_MAX : me, first = INT_MAX;
    MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm);
    if (first == INT_MAX) return {};
    int length = static_cast<int>(why.size());
    MPI_Bcast(&length, 1, MPI_INT, first, comm);
    std::string reason = why;
    reason.resize(static_cast<size_t>(length));
    MPI_Bcast(reason.data(), length, MPI_CHAR, first, comm);
    return first == me ? reason : "rank " + std::to_string(first) + ": " + reason;
}

}  // namespace twiddle::dist::detail
