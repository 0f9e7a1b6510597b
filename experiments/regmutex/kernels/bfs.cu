// bfs.cu -- breadth-first search, level by level (Rodinia's BFS): one thread
// per node of the frontier expands its edges.  Thread coarsening: each thread
// owns BFS_NODES nodes (strided), the form several optimized BFS codes take.
#define BFS_NODES 4
extern "C" __global__ void __launch_bounds__(512)
bfs_expand(const int *starts, const int *degrees, const int *edges, unsigned char *mask,
           unsigned char *updating, const unsigned char *visited, int *cost, int n)
{
    int base = blockIdx.x * blockDim.x * BFS_NODES + threadIdx.x;
#pragma unroll
    for (int k = 0; k < BFS_NODES; k++) {
        int tid = base + k * blockDim.x;
        if (tid < n && mask[tid]) {
            mask[tid] = 0;
            int c = cost[tid] + 1, s = starts[tid], e = s + degrees[tid];
            for (int i = s; i < e; i++) {
                int id = edges[i];
                if (!visited[id]) {
                    cost[id] = c;
                    updating[id] = 1;
                }
            }
        }
    }
}

extern "C" __global__ void __launch_bounds__(512)
bfs_update(unsigned char *mask, unsigned char *updating, unsigned char *visited, int *over, int n)
{
    int base = blockIdx.x * blockDim.x * BFS_NODES + threadIdx.x;
#pragma unroll
    for (int k = 0; k < BFS_NODES; k++) {
        int tid = base + k * blockDim.x;
        if (tid < n && updating[tid]) {
            mask[tid] = 1;
            visited[tid] = 1;
            *over = 1;
            updating[tid] = 0;
        }
    }
}
