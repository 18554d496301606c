// Quickstart in Go: a private network, two web instances on it behind firewall rules, a data
// disk, a managed k3s cluster with both instances as nodes, a secret, and a service that uses
// it. The same stack as examples/quickstart (TypeScript) and examples/yaml-quickstart, through
// the provider plugin and the generated Go SDK (sdk/go, reached through the replace in go.mod).
package main

import (
	"fmt"

	"github.com/pulumi-svc/pulumi-svc/sdk/go/svc"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

// or returns value, or fallback when it is empty (an unset config key).
func or(value, fallback string) string {
	if value == "" {
		return fallback
	}
	return value
}

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		cfg := config.New(ctx, "")
		region := or(cfg.Get("region"), "NA_01")
		adminCidr := or(cfg.Get("adminCidr"), "203.0.113.0/24")
		// A secret Output, secret still after the default fills an unset key.
		dbPassword := cfg.GetSecret("dbPassword").ApplyT(func(p string) string { return or(p, "change-me") }).(pulumi.StringOutput)

		// Pick a plan and an image by name (invokes of the plugin's lookups).
		plan, err := svc.GetPlan(ctx, &svc.GetPlanArgs{Name: or(cfg.Get("plan"), "lightning-2")})
		if err != nil {
			return err
		}
		image, err := svc.LookupImage(ctx, &svc.LookupImageArgs{Name: or(cfg.Get("image"), "Ubuntu 24.04 LTS")})
		if err != nil {
			return err
		}

		// No name: Pulumi names it from "app-net" and a suffix, so two stacks of this program can share a workspace.
		network, err := svc.NewVpc(ctx, "app-net", &svc.VpcArgs{
			Description: pulumi.String("quickstart web tier"),
			Range:       pulumi.String("10.42.0.0/16"),
		})
		if err != nil {
			return err
		}

		var web []*svc.Instance
		for n := 1; n <= 2; n++ {
			instance, err := svc.NewInstance(ctx, fmt.Sprintf("web-%d", n), &svc.InstanceArgs{
				Name:            pulumi.Sprintf("web-%d", n),
				PlanId:          pulumi.String(plan.Id),
				ImageId:         pulumi.String(image.Id),
				Region:          pulumi.String(region),
				VpcIds:          pulumi.StringArray{network.ID()},
				FirewallEnabled: pulumi.Bool(true),
			})
			if err != nil {
				return err
			}
			web = append(web, instance)

			// Default-deny from the first rule: allow SSH from the admin range and HTTP from anywhere.
			if _, err := svc.NewFirewallRule(ctx, fmt.Sprintf("web-%d-ssh", n), &svc.FirewallRuleArgs{
				InstanceId: instance.ID(), Type: pulumi.String("IPv4"), Protocol: pulumi.String("TCP"), Action: pulumi.String("ACCEPT"),
				PortStart: pulumi.Int(22), Remote: pulumi.String(adminCidr), Priority: pulumi.Int(10),
				Description: pulumi.String("ssh from admins"),
			}); err != nil {
				return err
			}
			if _, err := svc.NewFirewallRule(ctx, fmt.Sprintf("web-%d-http", n), &svc.FirewallRuleArgs{
				InstanceId: instance.ID(), Type: pulumi.String("IPv4"), Protocol: pulumi.String("TCP"), Action: pulumi.String("ACCEPT"),
				PortStart: pulumi.Int(8080), Priority: pulumi.Int(5), Description: pulumi.String("web service"),
			}); err != nil {
				return err
			}
		}

		data, err := svc.NewDisk(ctx, "data", &svc.DiskArgs{
			Name:       pulumi.String("web-1-data"),
			Size:       pulumi.Float64(20 << 30),
			Backend:    pulumi.String("LOCAL"),
			Region:     pulumi.String(region),
			InstanceId: web[0].ID(),
		})
		if err != nil {
			return err
		}

		cluster, err := svc.NewK3sCluster(ctx, "cluster", &svc.K3sClusterArgs{})
		if err != nil {
			return err
		}
		var nodes []pulumi.Resource
		for i, instance := range web {
			node, err := svc.NewK3sNode(ctx, fmt.Sprintf("node-%d", i+1), &svc.K3sNodeArgs{InstanceId: instance.ID()},
				pulumi.DependsOn([]pulumi.Resource{cluster}))
			if err != nil {
				return err
			}
			nodes = append(nodes, node)
		}

		secret, err := svc.NewK3sSecret(ctx, "app-secret", &svc.K3sSecretArgs{
			Name: pulumi.String("app-secret"),
			Data: pulumi.StringMap{"DATABASE_PASSWORD": dbPassword},
		}, pulumi.DependsOn([]pulumi.Resource{cluster}))
		if err != nil {
			return err
		}

		service, err := svc.NewK3sService(ctx, "web", &svc.K3sServiceArgs{
			Name:              pulumi.String("web"),
			Image:             pulumi.String("nginx:1.27"),
			Mode:              pulumi.String("SPREAD"),
			Replicas:          pulumi.Int(2),
			TargetInstanceIds: pulumi.StringArray{web[0].ID(), web[1].ID()},
			Ports: svc.K3sPortArray{svc.K3sPortArgs{
				HostPort: pulumi.Int(8080), ContainerPort: pulumi.Int(80), Protocol: pulumi.String("TCP"), Http: pulumi.Bool(true),
			}},
			Environment: pulumi.StringMap{"APP_ENV": pulumi.String("production")},
			SecretRefs:  pulumi.StringArray{secret.Name},
		}, pulumi.DependsOn(nodes))
		if err != nil {
			return err
		}

		var instances pulumi.MapArray
		for _, w := range web {
			instances = append(instances, pulumi.Map{
				"name": w.Name, "id": w.ID(), "publicIpv4": w.Ipv4Address, "privateIps": w.PrivateIps, "state": w.State,
			})
		}
		ctx.Export("vpcRange", network.Range)
		ctx.Export("instances", instances)
		ctx.Export("dataDisk", pulumi.Map{"id": data.ID(), "attachedTo": data.InstanceId, "sizeBytes": data.Size})
		ctx.Export("clusterName", cluster.Name)
		ctx.Export("clusterStatus", cluster.Status)
		ctx.Export("serviceStatus", service.Status)
		ctx.Export("serviceReplicas", pulumi.Sprintf("%v/%v", service.AvailableReplicas, service.DesiredReplicas))
		ctx.Export("url", pulumi.Sprintf("http://%s:8080", web[0].Ipv4Address))
		return nil
	})
}
