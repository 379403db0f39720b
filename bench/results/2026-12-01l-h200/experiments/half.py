import re,sys
s=open(sys.argv[1]).read()
keep=int(sys.argv[3])  # registers prefetched
lines=s.split('\n'); out=[]; inloop=False; inpref=False
P=16
for idx,l in enumerate(lines):
    if l.startswith('    for (; tile < tiles; tile += stride) {'): inloop=True; out.append(l); continue
    if inloop:
        m=re.match(r'\s*v(\d+) = n\1;',l)
        if m:
            k=int(m.group(1))
            if k<keep: out.append(l)
            if k==P-1:
                # direct loads of the current tile's other registers
                B=re.search(r'uint c = \(tile \+ stride\) \* (\d+)u \+ lc;',s).group(1)
                out.append('        {')
                out.append('            uint c = tile * %su + lc;'%B)
                out.append('            if (c < params.columns) {')
                out.append('                uint ft, fs, fd;')
                out.append('                locate(c, ft, fs, fd);')
                out.append('                uint base = params.src_offset + fs + ft;')
                for L in lines:
                    mm=re.match(r'\s*n(\d+) = (src\[base .*\]);',L)
                    if mm and int(mm.group(1))>=keep:
                        out.append('                v%s = %s;'%(mm.group(1),mm.group(2)))
                        if int(mm.group(1))==P-1: break
                out.append('            }')
                out.append('        }')
            continue
        if 'if (tile + stride < tiles)' in l: inpref=True
        if inpref:
            mm=re.match(r'\s*n(\d+) = src\[',l)
            if mm and int(mm.group(1))>=keep: continue
            if 'uint col = tile' in l: inpref=False; inloop=False
    out.append(l)
open(sys.argv[2],'w').write('\n'.join(out))
