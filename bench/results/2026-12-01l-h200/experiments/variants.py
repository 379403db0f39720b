import re,sys
def fold(s, fn='pad', sh=5):
    R=re.search(fn+r'\(lc \* (\d+)u \+',s).group(1)
    bases={}
    def rep(m):
        b=m.group(1); c=int(m.group(2)); bases[b]='pb_'+b
        return '(pb_%s + %du)'%(b, c+(c>>sh))
    s=re.sub(r'\b%s\(lc \* %su \+ (\w+) \+ (\d+)u\)'%(fn,R),rep,s)
    out=[]
    for l in s.split('\n'):
        out.append(l)
        for b,n in bases.items():
            if re.match(r'\s*uint %s = '%b,l) or (b=='i' and re.match(r'\s*uint i = tid',l)):
                out.append('    uint %s = %s(lc * %su + %s);'%(n,fn,R,b))
    return '\n'.join(out)
def vec2shared(s):
    # one round of 64-bit accesses: keep the .x round's moves as whole vec2s, drop the .y round
    lines=s.split('\n'); out=[]; skip=False
    n=int(re.search(r'shared float sh0\[(\d+)\];',s).group(1))
    size=n-(n//33)  # unpadded points: n = a + a/32
    for l in lines:
        if 'shared float sh0' in l:
            out.append('shared vec2 shv[%d];'%(size+size//16)); continue
        if 'uint pad(' in l:
            out.append(l); out.append('uint pad16(uint a) { return a + (a >> 4u); }'); continue
        m=re.match(r'(\s*)sh0\[pad\((.*)\)\] = (\w+)\.([xy]);$',l)
        if m:
            if m.group(4)=='x': out.append('%sshv[pad16(%s)] = %s;'%(m.group(1),m.group(2),m.group(3)))
            else:
                if out[-1].strip()=='barrier();': out.pop()
                skip=True
            continue
        if skip and l.strip()=='barrier();':
            skip=False; continue
        m=re.match(r'(\s*)(\w+)\.([xy]) = sh0\[pad\((.*)\)\];$',l)
        if m:
            if m.group(3)=='x': out.append('%s%s = shv[pad16(%s)];'%(m.group(1),m.group(2),m.group(4)))
            continue
        out.append(l)
    # remove doubled barriers: collapse consecutive barrier lines
    res=[]
    for l in out:
        if l.strip()=='barrier();' and res and res[-1].strip()=='barrier();': continue
        res.append(l)
    return '\n'.join(res)
def nosign(s):
    s='\n'.join(l for l in s.split('\n') if 'params.load_sign;' not in l)
    return re.sub(r'vec2\((\w+)\.x \* params\.store_re, \1\.y \* params\.store_im\)',r'\1',s)
def notw(s):
    return re.sub(r'(\s*)(v\d+) = cmul\(\2, tw\[\d+u \+ j\d_\d+\]\);',r'',s)
src=open(sys.argv[1]).read().rstrip()+'\n'
base=sys.argv[2]
V={'v0':src,'fold':fold(src),'vec2':vec2shared(src),'nosign':nosign(src),'notw':notw(src)}
V['vec2fold']=nosign(fold(vec2shared(src),'pad16',4))
V['all']=nosign(fold(src))
for k,v in V.items(): open('%s-%s.comp'%(base,k),'w').write(v)
